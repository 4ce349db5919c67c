/**
 * After-commit hook of the number events: once a number's new state is stored, the reports that waited for an owner
 * of its phone number may be settled (call-reports' `CallReportsService`). call-reports imports number-ownership (who
 * owned a number when), so number-ownership declares the hook here and the module binds it.
 */
export interface WaitingReports {
  settleWaitingFor(phoneNumber: string): Promise<void>;
}

export const WAITING_REPORTS = Symbol('WAITING_REPORTS');
