import { replicaSuite } from '../../helpers/replica-suite.js';
import { redisReplicas } from '../adapters/redis-replicas.js';

/* The replica suite on real Redis: each replica opens its own connections, on one key prefix per test. */
const replicas = redisReplicas('auth-replica');

replicaSuite('Redis, one connection set per replica', replicas.plain);

replicaSuite('Redis behind a cache per replica, as the runtime composes it', replicas.cached);
