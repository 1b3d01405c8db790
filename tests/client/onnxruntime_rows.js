// Runs a bundle's model.onnx with onnxruntime-node on raw float32 inputs and writes the output
// rows in nn::NetRunner's layout (action_space policy logits, 3 WDL logits, moves-left plies or 0),
// for tests/client/parity_test.cpp. Batches of 256 and a smaller last one: the batch is dynamic.
// usage: node onnxruntime_rows.js ORT_DIR MODEL PLANES SCALARS N OUT
'use strict';
const fs = require('fs');
const path = require('path');

const [ortDir, model, planesPath, scalarsPath, countText, outPath] = process.argv.slice(2);
const ort = require(path.join(ortDir, 'node_modules', 'onnxruntime-node'));

function floats(file) {
  const bytes = fs.readFileSync(file);
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
}

async function main() {
  const n = Number(countText);
  const planes = floats(planesPath);
  const scalars = floats(scalarsPath);
  const planeCount = planes.length / n / 64;
  const scalarCount = scalars.length / n;
  const session = await ort.InferenceSession.create(model, {intraOpNumThreads: 1, interOpNumThreads: 1});
  let out = null, stride = 0;
  for (let first = 0; first < n; first += 256) {
    const count = Math.min(256, n - first);
    const feeds = {planes: new ort.Tensor('float32', planes.subarray(first * planeCount * 64, (first + count) * planeCount * 64),
                                          [count, planeCount, 8, 8])};
    if (session.inputNames.includes('scalars'))
      feeds.scalars = new ort.Tensor('float32', scalars.subarray(first * scalarCount, (first + count) * scalarCount),
                                     [count, scalarCount]);
    const result = await session.run(feeds);
    const actions = result.policy.dims[1];
    if (!out) {
      stride = actions + 4;
      out = new Float32Array(n * stride);
    }
    for (let i = 0; i < count; ++i) {
      const row = (first + i) * stride;
      out.set(result.policy.data.subarray(i * actions, (i + 1) * actions), row);
      out.set(result.wdl.data.subarray(i * 3, (i + 1) * 3), row + actions);
      out[row + actions + 3] = result.moves_left ? result.moves_left.data[i] : 0;
    }
  }
  fs.writeFileSync(outPath, Buffer.from(out.buffer));
}

main().catch((e) => {
  console.error('onnxruntime_rows: ' + e.message);
  process.exit(1);
});
