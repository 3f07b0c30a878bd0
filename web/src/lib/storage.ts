/** Local browser storage keys (A §3) and the rules that keep them in step with the signed-in user (A §4). */

export const STORAGE_KEYS = {
  currentCampaignId: "currentCampaignId",
  campaignName: "campaignName",
  selectedBusinesses: "selectedBusinesses",
  campaignEmailSettings: "campaignEmailSettings",
  activeTab: "dashboard-active-tab",
  lastUserId: "lastUserId",
} as const;

/** Per-campaign keys are `aiEducationText_<id>` and `aiEducationFiles_<id>`. */
export const PER_CAMPAIGN_PREFIXES = ["aiEducationText", "aiEducationFiles"];

export function aiEducationKeys(campaignId: string | number): { text: string; files: string } {
  return { text: `aiEducationText_${campaignId}`, files: `aiEducationFiles_${campaignId}` };
}

/** The businesses ticked in step 2 of a campaign, kept as they change so that a reload keeps them (issue 33.5);
 * null when none are stored for this campaign. */
export function readSelection(campaignId: number, storage: Storage = localStorage): number[] | null {
  try {
    const stored = JSON.parse(storage.getItem(STORAGE_KEYS.selectedBusinesses) ?? "null") as { campaignId?: unknown; ids?: unknown } | null;
    const ids = stored?.campaignId === campaignId && Array.isArray(stored.ids) ? stored.ids : null;
    return ids && ids.every((id) => typeof id === "number") ? (ids as number[]) : null;
  } catch {
    return null;
  }
}

export function writeSelection(campaignId: number, ids: number[], storage: Storage = localStorage): void {
  storage.setItem(STORAGE_KEYS.selectedBusinesses, JSON.stringify({ campaignId, ids }));
}

/** Removes every stored campaign item (id, name, selected businesses, sender settings, AI education). */
export function clearCampaignData(storage: Storage = localStorage): void {
  storage.removeItem(STORAGE_KEYS.currentCampaignId);
  storage.removeItem(STORAGE_KEYS.campaignName);
  storage.removeItem(STORAGE_KEYS.selectedBusinesses);
  storage.removeItem(STORAGE_KEYS.campaignEmailSettings);
  const perCampaign: string[] = [];
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index);
    if (key && PER_CAMPAIGN_PREFIXES.some((prefix) => key.startsWith(prefix))) perCampaign.push(key);
  }
  perCampaign.forEach((key) => storage.removeItem(key));
}

/**
 * The lastUserId rule: when a different user signs in on this browser, all stored campaign data and the stored
 * tab are cleared. Returns true when something was cleared.
 */
export function applyLastUserRule(userId: string | number, storage: Storage = localStorage): boolean {
  const current = String(userId);
  const previous = storage.getItem(STORAGE_KEYS.lastUserId);
  storage.setItem(STORAGE_KEYS.lastUserId, current);
  if (previous === null || previous === current) return false;
  clearCampaignData(storage);
  storage.removeItem(STORAGE_KEYS.activeTab);
  return true;
}
