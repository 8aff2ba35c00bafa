import { SwitchyardError } from '../errors/switchyard-error.js';

/** A euclid refusal (the wire maps it to `{"code":"TE_04","message":<message>,"data":null}`, HTTP 400). */
export const routingRuleRejected = (message: string) => new SwitchyardError('SY_ROUTING_RULE_REJECTED', { message });
