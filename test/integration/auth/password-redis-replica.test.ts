import { passwordReplicaSuite } from '../../helpers/password-replica-suite.js';
import { cachedRedisReplicas } from './cached-redis-replicas.js';

/* Password change and reset across two replicas on real Redis, each behind its own cache. */
passwordReplicaSuite('Redis behind a cache per replica', cachedRedisReplicas('password-replica'));
