import { describeRouteGuards, guardShards } from '../helpers/guard-matrix.js';

// Shard 2 of the guard matrix's per-route cases (test/helpers/guard-matrix.ts).
describeRouteGuards(1, guardShards);
