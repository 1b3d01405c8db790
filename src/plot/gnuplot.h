#pragma once
// PNG charts drawn by gnuplot (Debian: gnuplot-nox), for whoever plots numbers: the run's plots
// (rundir/run_plots.h) and the placement statistics (placement/report.h). A chart is a data file of
// columns and a gnuplot script, both kept under <dir>/.gnuplot/ for whoever wants to redraw;
// each PNG is replaced atomically. Standard library and POSIX only.
#include <string>
#include <vector>

namespace sz::plot {

struct Chart {
  std::string name;  // "loss" -> loss.png
  std::string title, xlabel, ylabel;
  std::string style = "lines lw 2";
  std::string extra;  // more gnuplot commands before plot
  int series = 0;     // columns 2 .. series + 1 of the data file
  std::string plot;   // a whole plot command instead of the default loop (uses DATA)
};

struct Size {
  int width = 1000, height = 600;  // pixels
};

// A gnuplot single-quoted string.
std::string quoted(const std::string& text);
// A number as the data files write it: "%.6g", NaN for what is not finite.
std::string number(double v);

// A data file: a header line of column names, then rows (space separated).
void write_table(const std::string& path, const std::vector<std::string>& columns,
                 const std::vector<std::vector<double>>& rows);

// Runs `program script`, its output into `log`; throws sz::Error when it cannot start (naming the
// package to install) or fails (with its output).
void run_gnuplot(const std::string& program, const std::string& script, const std::string& log);

// Draws charts into one directory.
class Plotter {
 public:
  // Creates `dir` and dir/.gnuplot; `gnuplot` is the program, looked up in PATH.
  Plotter(std::string dir, std::string gnuplot = "gnuplot");
  // Writes the data and the script, runs gnuplot and returns the PNG's path.
  std::string draw(const Chart& chart, const std::vector<std::string>& columns,
                   const std::vector<std::vector<double>>& rows, Size size = {});

 private:
  std::string dir_, work_, gnuplot_;
};

}  // namespace sz::plot
