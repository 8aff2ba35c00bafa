/** An action's failure, announced to screen readers as it appears. */
export function FormError(props: { readonly error: string | undefined; readonly id?: string }) {
  if (props.error === undefined) return null;
  return (
    <p class="form-error" role="alert" id={props.id}>
      {props.error}
    </p>
  );
}
