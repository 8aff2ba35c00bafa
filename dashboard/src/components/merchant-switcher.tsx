import { useState } from 'preact/hooks';
import { sessionFromAuth } from '../session/session-store';
import { useDashboard } from '../session/dashboard-context';

/** Switches the session to another merchant of the user (POST /auth/switch-merchant: a new token). */
export function MerchantSwitcher() {
  const { api, session, setSession } = useDashboard();
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  if (session.merchants.length === 0) return null;

  const onChange = async (merchantId: string) => {
    if (merchantId === session.merchantId) return;
    setBusy(true);
    setError(undefined);
    try {
      setSession(sessionFromAuth(await api.auth.switchMerchant(merchantId)));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="merchant-switcher">
      <label for="merchant-select">Merchant</label>
      <select id="merchant-select" value={session.merchantId} disabled={busy} onChange={(event) => void onChange(event.currentTarget.value)}>
        {session.merchants.map((merchant) => (
          <option key={merchant.merchant_id} value={merchant.merchant_id}>
            {merchant.merchant_name === merchant.merchant_id ? merchant.merchant_id : `${merchant.merchant_name} (${merchant.merchant_id})`}
          </option>
        ))}
      </select>
      {error !== undefined && (
        <span role="alert" class="inline-error">
          {error}
        </span>
      )}
    </div>
  );
}
