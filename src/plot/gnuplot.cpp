#include "plot/gnuplot.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/read_file.h"

extern char** environ;

namespace sz::plot {

namespace fs = std::filesystem;

namespace {

std::string script_for(const Chart& chart, const std::string& data, const std::string& png_tmp, Size size) {
  const std::string dims = std::to_string(size.width) + "," + std::to_string(size.height);
  std::string s;
  s += "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size " + dims + " noenhanced }";
  s += " else { set terminal png size " + dims + " noenhanced }\n";
  s += "set output " + quoted(png_tmp) + "\n";
  s += "set title " + quoted(chart.title) + "\nset xlabel " + quoted(chart.xlabel) + "\nset ylabel " +
       quoted(chart.ylabel) + "\n";
  s += "set grid\nset key outside right top\nset datafile missing 'NaN'\n" + chart.extra;
  s += "DATA = " + quoted(data) + "\n";
  if (!chart.plot.empty()) return s + chart.plot + "\n";
  return s + "plot for [i=2:" + std::to_string(chart.series + 1) + "] DATA using 1:i with " + chart.style +
         " title columnheader(i)\n";
}

}  // namespace

std::string quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

std::string number(double v) {
  if (!std::isfinite(v)) return "NaN";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void write_table(const std::string& path, const std::vector<std::string>& columns,
                 const std::vector<std::vector<double>>& rows) {
  std::string text;
  for (size_t c = 0; c < columns.size(); ++c) text += (c ? " " : "") + columns[c];
  text += "\n";
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) text += (c ? " " : "") + number(row[c]);
    text += "\n";
  }
  write_file_atomically(path, text);
}

void run_gnuplot(const std::string& program, const std::string& script, const std::string& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> argv = {const_cast<char*>(program.c_str()), const_cast<char*>(script.c_str()), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    throw Error("cannot run " + program + ": " + std::strerror(rc) +
                (rc == ENOENT ? " (install gnuplot-nox: scripts/install-deps.sh)" : ""));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const Result<std::string> out = try_read_file(log);
    throw Error(program + " failed on " + script + ": " + (out ? *out : out.error()));
  }
}

Plotter::Plotter(std::string dir, std::string gnuplot)
    : dir_(std::move(dir)), work_((fs::path(dir_) / ".gnuplot").string()), gnuplot_(std::move(gnuplot)) {
  fs::create_directories(work_);
}

std::string Plotter::draw(const Chart& chart, const std::vector<std::string>& columns,
                          const std::vector<std::vector<double>>& rows, Size size) {
  const std::string data = (fs::path(work_) / (chart.name + ".dat")).string();
  const std::string script = (fs::path(work_) / (chart.name + ".gp")).string();
  const std::string png = (fs::path(dir_) / (chart.name + ".png")).string();
  const std::string png_tmp = png + ".tmp";
  write_table(data, columns, rows);
  write_file_atomically(script, script_for(chart, data, png_tmp, size));
  run_gnuplot(gnuplot_, script, (fs::path(work_) / (chart.name + ".log")).string());
  fs::rename(png_tmp, png);  // replaces the old plot atomically
  return png;
}

}  // namespace sz::plot
