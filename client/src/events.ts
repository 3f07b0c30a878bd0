/** Window events the app uses to talk across screens (A §2, §3, §4). */
export const ACCOUNT_STATUS_ERROR = "account-status-error";
export const SWITCH_TAB = "switchTab";
export const CLEAR_SEARCH_DATA = "clearSearchData";

/** Detail of the account-status-error event (A §3). */
export interface AccountStatusErrorDetail {
  status: number;
  message: string;
}

export function emitAccountStatusError(detail: AccountStatusErrorDetail): void {
  window.dispatchEvent(new CustomEvent<AccountStatusErrorDetail>(ACCOUNT_STATUS_ERROR, { detail }));
}

export function switchTab(tab: string): void {
  window.dispatchEvent(new CustomEvent<string>(SWITCH_TAB, { detail: tab }));
}
