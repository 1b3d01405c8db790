// Endgame tables: materials and their names, the ending rules' fingerprints, the index and its
// symmetries, the file format and its refusals (docs/TABLES.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "games/chaturanga/tables/clocks.h"
#include "games/chaturanga/tables/table_file.h"
#include "tables_fixture.h"

namespace sz::chaturanga::tables {
namespace {

namespace fs = std::filesystem;

TEST(TablesMaterial, NamesParseAndCanonicalOrientation) {
  const Material m = parse_material("KvKSR", Game::Sittuyin).take_or_throw();
  EXPECT_EQ(m.name(), "KvKRS");
  EXPECT_FALSE(m.canonical());
  EXPECT_EQ(m.canonical_form().name(), "KRSvK");
  EXPECT_EQ(parse_material("KNvKR", Game::Sittuyin).take_or_throw().canonical_form().name(), "KRvKN");
  EXPECT_EQ(parse_material("KSRvK", Game::Sittuyin).take_or_throw().name(), "KRSvK");  // strongest first
  EXPECT_EQ(parse_material("KRvKB", Game::Shatranj).take_or_throw().canonical_form().name(), "KRvKB");
  EXPECT_FALSE(parse_material("KBvK", Game::Sittuyin).ok());  // no alfil in Sittuyin
  EXPECT_FALSE(parse_material("KRRRvK", Game::Sittuyin).ok());
  EXPECT_FALSE(parse_material("KRvKRR", Game::Sittuyin).ok());  // five men
  EXPECT_FALSE(parse_material("RvK", Game::Sittuyin).ok());
}

TEST(TablesMaterial, EveryMaterialOfUpToFourMen) {
  for (Game game : {Game::Sittuyin, Game::Shatranj}) {
    const auto all = all_materials(game, 4);
    // K+X vs K: 4; K+XY vs K: 10; K+X vs K+Y: 10 (up to colours).
    EXPECT_EQ(all.size(), 24u);
    for (const Material& m : all) EXPECT_TRUE(m.canonical()) << m.name();
    EXPECT_EQ(all_materials(game, 3).size(), 4u);
  }
  const auto subs = capture_materials(parse_material("KRvKN", Game::Sittuyin).take_or_throw());
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(subs[0].name(), "KNvK");  // the rook taken: colours exchanged
  EXPECT_EQ(subs[1].name(), "KRvK");
}

TEST(TablesRules, ProfilesThatAgreeShareTables) {
  const auto rules = [](const char* p) { return ending_rules(*rule_profile(p).take_or_throw(p)); };
  EXPECT_EQ(rules_folder(rules("sittuyin")), rules_folder(rules("sittuyin-chessplayx")));
  EXPECT_EQ(rules_folder(rules("sittuyin-plyyard")), rules_folder(rules("sittuyin-traditional")));
  EXPECT_NE(rules_folder(rules("sittuyin")), rules_folder(rules("sittuyin-plyyard")));
  EXPECT_NE(rules_folder(rules("sittuyin")), rules_folder(rules("sittuyin-youzai")));
  EXPECT_EQ(rules_folder(rules("shatranj")).rfind("shatranj-", 0), 0u);
}

TEST(TablesRules, CountLimitAgreesWithThePosition) {
  const RuleProfile& rules = *rule_profile("sittuyin").take_or_throw();
  for (const char* name : {"KRNvK", "KSFvK", "KNFvK", "KFFvK", "KRSvK", "KNNvK"}) {
    const Material m = parse_material(name, Game::Sittuyin).take_or_throw();
    Piece pieces[4] = {make_piece(White, King), make_piece(Black, King), make_piece(White, m.men[White][0]),
                       make_piece(White, m.men[White][1])};
    const Square squares[4] = {board8::A1, board8::H8, board8::C3, board8::D5};
    const Position pos = Position::from_men(rules, White, pieces, squares, 4);
    EXPECT_EQ(count_limit_moves(m.men[White]), pos.count_limit(White)) << name;
  }
}

// Every entry that indexes to itself decodes to a position whose 8 (or 2) images index to it.
TEST(TablesLayout, IndexIsInvariantUnderTheSymmetries) {
  std::mt19937_64 rng(7);
  for (const char* name : {"KRvK", "KSvK", "KRNvK", "KSSvK", "KRvKS", "KNvKF"}) {
    const Layout layout(parse_material(name, Game::Sittuyin).take_or_throw());
    uint64_t canonical = 0;
    for (int trial = 0; trial < 20000; ++trial) {
      const uint64_t e = rng() % layout.size();
      Square sq[kMaxMen];
      Color stm;
      if (!layout.decode(e, sq, stm) || layout.index(sq, stm) != e) continue;
      ++canonical;
      for (int t = 1; t < (layout.full_symmetry() ? 8 : 2); ++t) {
        Square image[kMaxMen];
        for (int s = 0; s < layout.men(); ++s) {
          int f = board8::file_of(sq[s]), r = board8::rank_of(sq[s]);
          if (t & 4) std::swap(f, r);
          if (t & 1) f = 7 - f;
          if (t & 2) r = 7 - r;
          image[s] = board8::make_square(f, r);
        }
        EXPECT_EQ(layout.index(image, stm), e) << name << " transform " << t;
      }
    }
    EXPECT_GT(canonical, 10000u) << name;
  }
}

TEST(TablesLayout, SizesAreAsDocumented) {
  EXPECT_EQ(Layout(parse_material("KRvK", Game::Sittuyin).take_or_throw()).size(), 2u * 462 * 62);
  EXPECT_EQ(Layout(parse_material("KSvK", Game::Sittuyin).take_or_throw()).size(), 2u * 1806 * 62);
  EXPECT_EQ(Layout(parse_material("KRRvK", Game::Sittuyin).take_or_throw()).size(), 2u * 462 * 1891);
  EXPECT_EQ(Layout(parse_material("KRvKS", Game::Sittuyin).take_or_throw()).size(), 2u * 1806 * 62 * 62);
}

TEST(TablesFile, CodesRoundTrip) {
  for (int width : {1, 2})
    for (const Distance d : {Distance{}, Distance{Verdict::Win, 0}, Distance{Verdict::Win, 126},
                             Distance{Verdict::Loss, 0}, Distance{Verdict::Loss, 127}})
      EXPECT_EQ(decode_distance(encode_distance(d, width), width), d);
  EXPECT_EQ(decode_distance(encode_distance({Verdict::Loss, 3000}, 2), 2), (Distance{Verdict::Loss, 3000}));
  EXPECT_EQ(width_for(126, 127), 1);
  EXPECT_EQ(width_for(127, 0), 2);
}

class TablesFileDamage : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<testing::TempDir>("sz-tables-damage");
    testing::build_test_tables(dir_->path(), {"sittuyin", "shatranj"}, {"3"});
    rules_ = ending_rules(*rule_profile("sittuyin").take_or_throw());
    krk_ = rules_path(dir_->path(), rules_) + "/KRvK.szt";
  }
  // The error loading the sittuyin tables gives, or "" when they load.
  std::string load_error() {
    try {
      load_table_set(dir_->path(), rules_);
      return "";
    } catch (const Error& e) {
      return e.what();
    }
  }
  void patch(const std::string& path, size_t offset, char byte) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(offset));
    f.put(byte);
  }

  std::unique_ptr<testing::TempDir> dir_;
  EndingRules rules_;
  std::string krk_;
};

TEST_F(TablesFileDamage, SoundTablesLoad) {
  EXPECT_EQ(load_error(), "");
  for (const auto& item : fs::directory_iterator(rules_path(dir_->path(), rules_)))
    EXPECT_TRUE(item.path().extension() == ".szt" || item.path().filename() == "RULES.txt") << item.path();
}

TEST_F(TablesFileDamage, APayloadByteFlippedIsNamed) {
  patch(krk_, 128 + 1000, '\x55');
  const std::string e = load_error();
  EXPECT_NE(e.find("KRvK.szt"), std::string::npos) << e;
  EXPECT_NE(e.find("damaged"), std::string::npos) << e;
}

TEST_F(TablesFileDamage, AHeaderByteFlippedIsNamed) {
  patch(krk_, 50, '\x01');
  EXPECT_NE(load_error().find("KRvK.szt: damaged header"), std::string::npos) << load_error();
}

TEST_F(TablesFileDamage, ATruncatedFileIsNamed) {
  fs::resize_file(krk_, fs::file_size(krk_) - 10);
  EXPECT_NE(load_error().find("KRvK.szt: truncated"), std::string::npos) << load_error();
  fs::resize_file(krk_, 20);
  EXPECT_NE(load_error().find("KRvK.szt: truncated"), std::string::npos) << load_error();
}

TEST_F(TablesFileDamage, AForeignTableIsNamed) {
  // Shatranj's KRvK under Sittuyin's name, a KNvK renamed KRvK, another format version, not a table.
  const std::string shatranj = rules_path(dir_->path(), ending_rules(*rule_profile("shatranj").take_or_throw()));
  fs::copy_file(shatranj + "/KRvK.szt", krk_, fs::copy_options::overwrite_existing);
  EXPECT_NE(load_error().find("KRvK.szt: a table of shatranj"), std::string::npos) << load_error();
  fs::copy_file(rules_path(dir_->path(), rules_) + "/KNvK.szt", krk_, fs::copy_options::overwrite_existing);
  EXPECT_NE(load_error().find("KRvK.szt: holds KNvK, not KRvK"), std::string::npos) << load_error();
  testing::build_test_tables(dir_->path(), {"sittuyin"}, {"KRvK"});
  patch(krk_, 8, '\x07');  // format version 7
  EXPECT_NE(load_error().find("format version 7"), std::string::npos) << load_error();
  std::ofstream(krk_, std::ios::binary) << std::string(300, 'x');
  EXPECT_NE(load_error().find("KRvK.szt: not an endgame table"), std::string::npos) << load_error();
}

TEST_F(TablesFileDamage, AMissingTableOneCaptureAwayIsNamed) {
  testing::build_test_tables(dir_->path(), {"sittuyin"}, {"KRvKN"});
  fs::remove(rules_path(dir_->path(), rules_) + "/KNvK.szt");
  EXPECT_NE(load_error().find("KRvKN.szt: needs KNvK.szt"), std::string::npos) << load_error();
}

TEST_F(TablesFileDamage, ADamagedTableIsRebuilt) {
  patch(krk_, 128 + 5, '\x33');
  testing::build_test_tables(dir_->path(), {"sittuyin"}, {"KRvK"});
  EXPECT_EQ(load_error(), "");
}

}  // namespace
}  // namespace sz::chaturanga::tables
