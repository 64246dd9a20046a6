/** The edge fuzz suite (./fuzz-edge-suite.ts) on the operations of the `deals` shard's groups. */
import { fuzzEdge } from './fuzz-edge-suite.ts';

await fuzzEdge('deals');
