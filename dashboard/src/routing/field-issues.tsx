import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** The rule builder's issues by field id (rule-issues.ts), for the fields to show under themselves. */
export const FieldIssues = createContext<ReadonlyMap<string, string>>(new Map());

/**
 * The issue of field `id` in `issues`, if any: the attributes that mark the control invalid and
 * point its description at the message, and the message element to render after it.
 */
export function fieldIssueOf(issues: ReadonlyMap<string, string>, id: string) {
  const message = issues.get(id);
  const issueId = `${id}-issue`;
  return {
    inputProps: message === undefined ? {} : { 'aria-invalid': true as const, 'aria-describedby': issueId },
    text:
      message === undefined ? null : (
        <span class="inline-error field-issue" id={issueId}>
          {message}
        </span>
      ),
  };
}

/** {@link fieldIssueOf} for one field, from the builder's context. */
export function useFieldIssue(id: string) {
  return fieldIssueOf(useContext(FieldIssues), id);
}
