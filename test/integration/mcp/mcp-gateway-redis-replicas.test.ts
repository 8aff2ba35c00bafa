import { mcpGatewayReplicaSuite } from '../../helpers/mcp-gateway-replica-suite.js';
import { redisReplicas } from '../adapters/redis-replicas.js';

// Two replicas on real Redis, each with its own connections and its own cache in front, as the runtime composes them.
mcpGatewayReplicaSuite('Redis behind a cache per replica', redisReplicas('mcp-gateway').cached);
