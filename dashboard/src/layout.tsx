import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { MerchantSwitcher } from './components/merchant-switcher';
import { hrefOf, pages, titleOf, type Location } from './routes';
import { useDashboard } from './session/dashboard-context';

const groups = [...new Set(pages.map((page) => page.group))];

/** The fragment holds the page route, so the skip link moves focus itself rather than navigating to #main. */
function skipToContent(event: Event): void {
  event.preventDefault();
  document.getElementById('main')?.focus();
}

/** The frame of every signed-in page: skip link, header (merchant, sign out), navigation, main. */
export function Layout(props: { readonly location: Location; readonly children: ComponentChildren }) {
  const { api, session, setSession } = useDashboard();
  const [menuOpen, setMenuOpen] = useState(false);
  const title = titleOf(props.location.page);

  useEffect(() => {
    document.title = `${title} · Switchyard`;
    setMenuOpen(false);
  }, [title]);

  const signOut = async () => {
    try {
      await api.auth.logout();
    } finally {
      // Even when the service is unreachable, this tab forgets the token.
      setSession(undefined);
    }
  };

  return (
    <div class="shell">
      <a class="skip-link" href="#main" onClick={skipToContent}>
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">Switchyard</span>
        <button type="button" class="menu-button" aria-expanded={menuOpen} aria-controls="site-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <MerchantSwitcher />
        <span class="who" title={session.email}>
          {session.email}
        </span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <nav id="site-nav" class={menuOpen ? 'sidenav open' : 'sidenav'} aria-label="Dashboard">
        {groups.map((group) => (
          <div class="nav-group" key={group}>
            <h2 class="nav-heading">{group}</h2>
            <ul>
              {pages
                .filter((page) => page.group === group)
                .map((page) => (
                  <li key={page.path}>
                    <a href={hrefOf(page.path)} aria-current={page.path === props.location.page ? 'page' : undefined}>
                      {page.title}
                    </a>
                  </li>
                ))}
            </ul>
          </div>
        ))}
      </nav>
      <main id="main" tabIndex={-1}>
        <h1>{title}</h1>
        {props.children}
      </main>
    </div>
  );
}
