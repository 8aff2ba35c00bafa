/**
 * decision-engine 1.4.x "decider" error envelope, used by /decide-gateway, /decision_gateway,
 * /update-gateway-score and /update-score. Always sent with HTTP 400 (the reference does the same,
 * even for `status:"Forbidden"`); clients branch on `error_info.code`.
 */
export interface DeciderErrorEnvelope {
  readonly status: string;
  readonly error_code: string;
  readonly error_message: string;
  readonly priority_logic_tag: null;
  readonly routing_approach: string | null;
  /** Legacy /decision_gateway only: per filter, the gateways it removed. */
  readonly filter_wise_gateways: Readonly<Record<string, readonly string[]>> | null;
  readonly error_info: { readonly code: string; readonly user_message: string; readonly developer_message: string };
  readonly priority_logic_output: null;
  readonly is_dynamic_mga_enabled: false;
}

export function deciderError(input: {
  status: string;
  errorCode: string;
  message: string;
  infoCode: string;
  userMessage?: string;
  developerMessage?: string;
  routingApproach?: string | null;
  filterWiseGateways?: Readonly<Record<string, readonly string[]>> | null;
}): DeciderErrorEnvelope {
  return {
    status: input.status,
    error_code: input.errorCode,
    error_message: input.message,
    priority_logic_tag: null,
    routing_approach: input.routingApproach ?? null,
    filter_wise_gateways: input.filterWiseGateways ?? null,
    error_info: {
      code: input.infoCode,
      user_message: input.userMessage ?? input.message,
      developer_message: input.developerMessage ?? input.message,
    },
    priority_logic_output: null,
    is_dynamic_mga_enabled: false,
  };
}

/** The envelope for any body that could not be parsed or failed its schema; the developer message names the problem. */
export function deciderParseError(problem: string, message: string | undefined = 'Error parsing request'): DeciderErrorEnvelope {
  return deciderError({
    status: '400',
    errorCode: '400',
    message,
    infoCode: 'INVALID_INPUT',
    userMessage: 'Invalid request params. Please verify your input.',
    developerMessage: problem,
  });
}
