#pragma once
// c10d's debug level (libtorch 1.13's torch/csrc/distributed/c10d/debug.h), from the
// TORCH_DISTRIBUTED_DEBUG environment variable: OFF (the default), INFO or DETAIL. At DETAIL,
// ProcessGroupGloo checks before every collective that all ranks are running the same one
// (Note [Checking that the ranks run the same collective] in GlooCollectives.cpp).

namespace c10d {

enum class DebugLevel { Off = 0, Info = 1, Detail = 2 };

void setDebugLevel(DebugLevel level);
// Reads TORCH_DISTRIBUTED_DEBUG; another value than OFF, INFO or DETAIL is an error.
void setDebugLevelFromEnvironment();
// The level set, or the environment's when none was (OFF, with a warning, for a bad value).
DebugLevel debug_level() noexcept;

}  // namespace c10d
