import { reportingCurrencyReplicaSuite } from '../../helpers/reporting-currency-replica-suite.js';
import { redisReplicas } from '../adapters/redis-replicas.js';

/* The reporting-currency replica suite on real Redis: each replica opens its own connections, on one key prefix per test. */
const replicas = redisReplicas('reporting-replica');

reportingCurrencyReplicaSuite('Redis behind a cache per replica, as the runtime composes it', replicas.cached);
