import { routingRuleReplicaSuite } from '../../helpers/routing-rule-replica-suite.js';
import { redisReplicas } from '../adapters/redis-replicas.js';

/* The routing-rule replica suite on real Redis: each replica opens its own connections, on one key prefix per test. */
const replicas = redisReplicas('rules-replica');

routingRuleReplicaSuite('Redis, one connection set per replica', replicas.plain);

routingRuleReplicaSuite('Redis behind a cache per replica, as the runtime composes it', replicas.cached);
