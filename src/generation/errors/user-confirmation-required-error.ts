/**
 * A tool flagged `requiresConfirmation` (writeFile by default) was called without the caller
 * granting it. The model receives `{ error: 'USER_CONFIRMATION_REQUIRED' }` as the tool result;
 * library callers that execute a tool directly get this error.
 */
export class UserConfirmationRequiredError extends Error {
  readonly code = 'USER_CONFIRMATION_REQUIRED' as const;
  readonly toolName: string;
  constructor(toolName: string) {
    super(`USER_CONFIRMATION_REQUIRED: the tool "${toolName}" needs the user's confirmation before it runs`);
    this.name = 'UserConfirmationRequiredError';
    this.toolName = toolName;
  }
}
