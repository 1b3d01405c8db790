#include "train/checkpoint_resume.h"

#include <filesystem>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/read_file.h"
#include "rundir/checkpoint_files.h"

namespace sz::train {

namespace fs = std::filesystem;

namespace {

// Why the checkpoint at `path` cannot be resumed from, or "" when it can: its tensors match their
// checksum and its trainer state reads, at the same step.
std::string unreadable_reason(const std::string& path) {
  try {
    std::string where;
    saved_state(path, models::read_checkpoint_meta(path), where);
    return "";
  } catch (const Error& e) {
    return e.what();
  }
}

}  // namespace

TrainerState saved_state(const std::string& path, const models::CheckpointMeta& meta, std::string& where) {
  TrainerState state;
  if (!meta.trainer_state.empty()) {
    where = path + " (its trainer state)";
    state = state_from_text(meta.trainer_state, where).take_or_throw();
  } else {
    where = rundir::state_path(path);
    state = state_from_text(read_file(where), where).take_or_throw();
  }
  if (state.step != meta.step)
    throw Error(where + ": step " + std::to_string(state.step) + ", but the checkpoint is at step " +
                std::to_string(meta.step));
  return state;
}

std::string checkpoint_to_resume(const std::string& models_dir, const std::function<void(const std::string&)>& warn) {
  const std::string pointer = rundir::current_path(models_dir);
  std::string named, pointer_problem = pointer + " is missing";
  try {
    named = rundir::read_current(models_dir);
  } catch (const Error& e) {
    pointer_problem = e.what();
  }
  const int64_t named_step = named.empty() ? -1 : rundir::checkpoint_step(fs::path(named).filename().string());
  std::string chosen;
  std::vector<std::pair<std::string, std::string>> unreadable;  // newer than current, with why
  for (const std::string& path : rundir::list_checkpoints(models_dir)) {
    if (rundir::checkpoint_step(fs::path(path).filename().string()) <= named_step) break;
    const std::string why = unreadable_reason(path);
    if (why.empty()) {
      chosen = path;
      break;
    }
    unreadable.emplace_back(path, why);
  }
  if (named.empty() && chosen.empty() && !unreadable.empty()) {
    std::string list;
    for (const auto& [path, why] : unreadable) list += "\n  " + why;
    throw Error(pointer_problem + " and no checkpoint in " + models_dir + " can be read; refusing to start a " +
                "fresh network over them (move them away to start afresh):" + list);
  }
  for (const auto& [path, why] : unreadable) {
    std::string why_not;
    const std::string moved = rundir::move_checkpoint_to_damaged(path, &why_not);
    warn("skipping checkpoint " + why +
         (moved.empty() ? " (could not move it: " + why_not + ")" : " (moved to " + moved + ")"));
  }
  if (chosen.empty()) return named;
  warn(named.empty()
           ? pointer_problem + "; resuming from " + chosen + ", the newest readable checkpoint"
           : pointer + " names " + named + ", but " + chosen +
                 " is newer and complete (a trainer stopped before it updated current.txt); resuming from it");
  rundir::write_current(models_dir, fs::path(chosen).filename().string());
  return chosen;
}

}  // namespace sz::train
