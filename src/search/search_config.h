#pragma once
// Every knob of the search, with its default, in one place. A plain struct with its field list
// (fields() below: the `search` section of a run config, read and written through
// config/section.h); tests and tools fill it directly. Units are stated per field; "visits"
// count simulations through the root (a root's N = 1 + its children's N).
#include <cstdint>

#include "core/retired_keys.h"
#include "search/play_settings.h"

namespace sz::search {

enum class RootSelection : uint8_t {
  Puct,    // PUCT everywhere, Dirichlet noise and forced playouts on full searches
  Gumbel,  // Gumbel top-m sampling with sequential halving at the root, PUCT below it
};

// Which budget a search gets (playout-cap randomisation, KataGo).
enum class SearchKind : uint8_t {
  Auto,   // full with probability full_search_fraction, else cheap
  Full,   // noise, forced playouts, a policy target
  Cheap,  // no noise, no forced playouts; its visits are not a policy target
};

struct SearchConfig {
  // ---- Budget (playout-cap randomisation) ----
  // PUCT: the root's children end the search with at least this many visits in all, counting
  // the visits kept by tree reuse (KataGo's maxVisits), so a reused tree saves work and the
  // tree stays bounded. Gumbel: the number of new simulations (sequential halving plans them).
  int full_visits = 600;
  int cheap_visits = 100;
  double full_search_fraction = 0.25;  // share of SearchKind::Auto searches that are full, [0, 1]

  // ---- PUCT: Q + c(N) * P * sqrt(N_children) / (1 + N_child) ----
  float cpuct_init = 1.25f;  // c(N) = cpuct_init + log((1 + N + cpuct_base) / cpuct_base)
  float cpuct_base = 19652.0f;
  // First-play urgency (lc0): an unvisited child's Q = parent Q - reduction * sqrt(visited
  // policy mass), parent Q from the mover's view, in W - L units.
  float fpu_reduction = 0.3f;
  float fpu_reduction_root = 0.3f;
  // Contempt (lc0's draw score): a game the rules end drawn in the tree (repetition, n-move,
  // counting...) is worth -contempt to the side to move at the root and +contempt to its
  // opponent, so the search plays on rather than repeat into a draw against a weaker opponent.
  float contempt = 0.0f;
  // The play-time leaf search (play_settings.h).
  LeafSearchConfig leaf;

  // ---- Root exploration, full PUCT searches only ----
  float dirichlet_weight = 0.25f;        // P' = (1 - w) P + w eta; 0 disables the noise
  float dirichlet_total_alpha = 10.83f;  // eta ~ Dir(total / legal moves) (KataGo)
  bool forced_playouts = true;           // each root child gets >= sqrt(k P N) visits
  float forced_playouts_k = 2.0f;
  bool policy_target_pruning = true;  // removes forced visits from the target (needs forced_playouts)

  // ---- Move choice by visit count with temperature, P(a) ~ N(a)^(1/T) (PUCT only) ----
  float placement_temperature = 1.0f;        // every placement ply: diverse formations
  float play_temperature = 1.0f;             // the first play_temperature_plies plies of play
  int play_temperature_plies = 10;           // counted from the first ply of the play phase
  float play_temperature_half_life = 10.0f;  // plies; then T decays to the floor (KataGo)
  float play_temperature_floor = 0.0f;       // below 0.01 the choice is greedy (most visits)
  // A root move the search saw end the game in the mover's favour is played whatever the
  // temperature or the Gumbel draw (the policy target is unchanged).
  bool play_proven_wins = true;

  // ---- Gumbel root (Danihelka et al. 2022; mctx defaults) ----
  RootSelection root_selection = RootSelection::Puct;
  int gumbel_considered = 16;    // m: actions sampled without replacement by Gumbel + logit
  float gumbel_c_visit = 50.0f;  // sigma(q) = (c_visit + max N) * c_scale * q
  float gumbel_c_scale = 0.1f;

  // ---- Tree ----
  bool tree_reuse = true;  // keep the played child's subtree for the next search
  // Arenas grow on demand and keep their memory; these sizes avoid the first regrowths.
  int reserve_nodes = 0;            // 0: full_visits + 2
  int reserve_edges_per_node = 40;  // expected branching factor
};

// The settings a player may change at play time, declared once (play_settings.h): contempt and
// the leaf search. C: SearchConfig, const or not.
template <typename V, typename C>
void play_settings(V& v, C& c) {
  v.setting({.key = "contempt",
             .spec = "contempt",
             .uci = "Contempt",
             .uci_scale = 100,
             .help = "what a draw the rules decide in the tree costs the searching side, in a win's units; above 0 "
                     "it plays on rather than repeat against a weaker side"},
            c.contempt, -1.0f, 1.0f);
  leaf_settings(v, c.leaf);
}

// Keys of the `search` section that earlier versions wrote and this one no longer has
// (core/retired_keys.h): a run's config.yaml, a levels manifest or a bundle with one still reads
// while it is off.
inline constexpr RetiredKey kRetiredSearchKeys[] = {
    {"quiescence_check_plies", true, "dropped after E15 (quiet checks at the leaves, docs/BENCHMARKS.md)"},
    {"leaf_material_knee", true, "dropped after E19 (no gain over whole matches, twice, docs/BENCHMARKS.md)"},
    {"leaf_draw_rule", true, "dropped after E19 (no gain over whole matches, twice, docs/BENCHMARKS.md)"},
};

// Every key of the `search` section, with its range (the visitor interface of config/section.h).
template <typename V>
void fields(V& v, SearchConfig& c) {
  v.num("full_visits", c.full_visits, 1, 1'000'000);
  v.num("cheap_visits", c.cheap_visits, 1, 1'000'000);
  v.num("full_search_fraction", c.full_search_fraction, 0.0, 1.0);
  v.num("cpuct_init", c.cpuct_init, 0.0f, 100.0f);
  v.num("cpuct_base", c.cpuct_base, 1.0f, 1e9f);
  v.num("fpu_reduction", c.fpu_reduction, -2.0f, 2.0f);
  v.num("fpu_reduction_root", c.fpu_reduction_root, -2.0f, 2.0f);
  ConfigKeys<V> play(v);  // contempt and the leaf search, declared in play_settings() below
  play_settings(play, c);
  v.num("dirichlet_weight", c.dirichlet_weight, 0.0f, 1.0f);
  v.num("dirichlet_total_alpha", c.dirichlet_total_alpha, 0.0f, 1000.0f);
  v.flag("forced_playouts", c.forced_playouts);
  v.num("forced_playouts_k", c.forced_playouts_k, 0.0f, 100.0f);
  v.flag("policy_target_pruning", c.policy_target_pruning);
  v.num("placement_temperature", c.placement_temperature, 0.0f, 100.0f);
  v.num("play_temperature", c.play_temperature, 0.0f, 100.0f);
  v.num("play_temperature_plies", c.play_temperature_plies, 0, 100'000);
  v.num("play_temperature_half_life", c.play_temperature_half_life, 0.01f, 1e6f);
  v.num("play_temperature_floor", c.play_temperature_floor, 0.0f, 100.0f);
  v.choice("root_selection", c.root_selection, {{"puct", RootSelection::Puct}, {"gumbel", RootSelection::Gumbel}});
  v.num("gumbel_considered", c.gumbel_considered, 1, 256);
  v.num("gumbel_c_visit", c.gumbel_c_visit, 0.0f, 1e6f);
  v.num("gumbel_c_scale", c.gumbel_c_scale, 0.0f, 1e6f);
  v.flag("tree_reuse", c.tree_reuse);
  v.num("reserve_nodes", c.reserve_nodes, 0, 100'000'000);
  v.num("reserve_edges_per_node", c.reserve_edges_per_node, 1, 256);
}

}  // namespace sz::search
