import { describeRouteGuards, guardShards } from '../helpers/guard-matrix.js';

// Shard 1 of the guard matrix's per-route cases (test/helpers/guard-matrix.ts).
describeRouteGuards(0, guardShards);
