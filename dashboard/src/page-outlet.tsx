import type { Location } from './routes';
import { AccountPage } from './pages/account-page';
import { ApiKeysPage } from './pages/api-keys-page';
import { AuditPage } from './pages/audit-page';
import { AutopilotPage } from './pages/autopilot-page';
import { CostsPage } from './pages/costs-page';
import { ExperimentsPage } from './pages/experiments-page';
import { BatchesPage } from './pages/batches-page';
import { LlmUsagePage } from './pages/llm-usage-page';
import { EndUsersPage } from './pages/end-users-page';
import { McpPage } from './pages/mcp-page';
import { ProviderCredentialsPage } from './pages/provider-credentials-page';
import { MembersPage } from './pages/members-page';
import { ModelsPage } from './pages/models-page';
import { PlaygroundPage } from './pages/playground-page';
import { RouteGroupsPage } from './pages/route-groups-page';
import { ExplorerPage } from './pages/explorer-page';
import { OnboardingPage } from './pages/onboarding-page';
import { OverviewPage } from './pages/overview-page';
import { RoutingPage } from './pages/routing-page';
import { VolumeCommitmentPage } from './pages/volume-commitment-page';

/** The page the location names; each page owns its data and states. */
export function PageOutlet(props: { readonly location: Location }) {
  switch (props.location.page) {
    case 'overview':
      return <OverviewPage />;
    case 'audit':
      return <AuditPage key={props.location.params.toString()} location={props.location} />;
    case 'explorer':
      return <ExplorerPage key={props.location.params.toString()} location={props.location} />;
    case 'routing':
      return <RoutingPage />;
    case 'costs':
      return <CostsPage />;
    case 'autopilot':
      return <AutopilotPage />;
    case 'experiments':
      return <ExperimentsPage />;
    case 'volume-commitments':
      return <VolumeCommitmentPage />;
    case 'models':
      return <ModelsPage />;
    case 'route-groups':
      return <RouteGroupsPage />;
    case 'playground':
      return <PlaygroundPage />;
    case 'batches':
      return <BatchesPage />;
    case 'llm-usage':
      return <LlmUsagePage />;
    case 'end-users':
      return <EndUsersPage />;
    case 'mcp':
      return <McpPage />;
    case 'provider-credentials':
      return <ProviderCredentialsPage />;
    case 'keys':
      return <ApiKeysPage />;
    case 'members':
      return <MembersPage />;
    case 'account':
      return <AccountPage />;
    case 'new-merchant':
      return <OnboardingPage embedded />;
  }
}
