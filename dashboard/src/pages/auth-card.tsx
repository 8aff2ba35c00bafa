import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

/** The frame of the pages shown without a session: sign-in, forgot and reset password, email verification. */
export function AuthCard(props: { readonly title: string; readonly children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${props.title} · Switchyard`;
  }, [props.title]);
  return (
    <main id="main" class="auth-page">
      <div class="auth-card">
        <p class="brand">Switchyard</p>
        <h1>{props.title}</h1>
        {props.children}
      </div>
    </main>
  );
}
