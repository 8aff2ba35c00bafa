import type { Location } from './routes';
import { ApiKeysPage } from './pages/api-keys-page';
import { OnboardingPage } from './pages/onboarding-page';
import { OverviewPage } from './pages/overview-page';

/** The page the location names; each page owns its data and states. */
export function PageOutlet(props: { readonly location: Location }) {
  switch (props.location.page) {
    case 'overview':
      return <OverviewPage />;
    case 'keys':
      return <ApiKeysPage />;
    case 'new-merchant':
      return <OnboardingPage embedded />;
    default:
      return <p class="state state-empty">This page is not built yet.</p>;
  }
}
