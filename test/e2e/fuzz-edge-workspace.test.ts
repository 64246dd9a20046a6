/** The edge fuzz suite (./fuzz-edge-suite.ts) on the operations of the `workspace` shard's groups. */
import { fuzzEdge } from './fuzz-edge-suite.ts';

await fuzzEdge('workspace');
