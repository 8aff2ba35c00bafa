/** decision-engine 1.4.x generic API error: `{code, message, data}` (codes TE_00…TE_05). */
export interface GenericErrorEnvelope {
  readonly code: string;
  readonly message: string;
  readonly data: null;
}

export function genericError(code: string, message: string): GenericErrorEnvelope {
  return { code, message, data: null };
}
