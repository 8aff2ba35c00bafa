import { VolumeCommitmentPanel } from '../volume-commitment/volume-commitment-panel';

/** Volume commitments: each PSP's promise against its delivery, and what steering does about it. */
export function VolumeCommitmentPage() {
  return <VolumeCommitmentPanel />;
}
