#pragma once
// The weights players get (TrainConfig::average_decay): an exponential moving average of the
// trained weights, batch norm's running statistics included, kept beside the network and saved
// in its checkpoints (models/checkpoint.h: AveragedWeights).
#include <cstdint>

#include "models/network.h"

namespace sz::train {

// Every parameter and buffer of `to` set to `from`'s (one architecture: the same order).
void copy_weights(const models::Network& from, models::Network& to);

// The decay of the average after `step` steps: `decay`, but less at the start, (1 + step) /
// (10 + step), so that the first steps' weights do not linger (TensorFlow's num_updates).
double average_decay(double decay, int64_t step);

// `averaged` moved towards `net` by 1 - decay; batch norm's running statistics are averaged like
// the weights, its step counter copied.
void move_average(models::Network& averaged, const models::Network& net, double decay);

}  // namespace sz::train
