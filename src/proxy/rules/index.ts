import { answersFollowTheOrderOfChecks } from './answers-follow-the-order-of-checks.js'
import { acceptedTokensStayAccepted } from './accepted-tokens-stay-accepted.js'
import { answersAgreeOnAUser } from './answers-agree-on-a-user.js'
import { answersStayInTheCallersOrganization } from './answers-stay-in-the-callers-organization.js'
import type { ProxyRule } from './define-rule.js'
import { conflictsAreForInvitedUsers } from './conflicts-are-for-invited-users.js'
import { deletedUsersStayGone } from './deleted-users-stay-gone.js'
import { listFiltersHold } from './list-filters-hold.js'
import { listsAgreeWithTheWholeList } from './lists-agree-with-the-whole-list.js'
import { listOrderHolds } from './list-order-holds.js'
import { listPagesAddUp } from './list-pages-add-up.js'
import { namesAreStoredTrimmed } from './names-are-stored-trimmed.js'
import { otherOrganizationsIdsAre404 } from './other-organizations-ids-are-404.js'
import { patchAnswersWhatWasAsked } from './patch-answers-what-was-asked.js'
import { permissionComesBeforeTheStateRule } from './permission-comes-before-the-state-rule.js'
import { permissionTableHolds } from './permission-table-holds.js'
import { problemsAreWordedAsAgreed } from './problems-are-worded-as-agreed.js'
import { problemsPointIntoTheBody } from './problems-point-into-the-body.js'
import { refusedPatchesChangeNothing } from './refused-patches-change-nothing.js'
import { refusedTokensGet401 } from './refused-tokens-get-401.js'
import { updatedAtMovesOnlyOnAChange } from './updated-at-moves-only-on-a-change.js'
import { userTimestampsHold } from './user-timestamps-hold.js'
import { usersShownWereThere } from './users-shown-were-there.js'
import { invitedUsersKeepTheirStatus } from './invited-users-keep-their-status.js'
import { validRequestsAreNotRefused } from './valid-requests-are-not-refused.js'

/**
 * The rules of docs/contract.md that the proxy judges from traffic alone, beside verify's response
 * checks (src/contract/checks/), which it runs on every answer too.
 */
export const PROXY_RULES: ProxyRule[] = [
  answersFollowTheOrderOfChecks,
  validRequestsAreNotRefused,
  answersStayInTheCallersOrganization,
  otherOrganizationsIdsAre404,
  permissionTableHolds,
  permissionComesBeforeTheStateRule,
  refusedTokensGet401,
  acceptedTokensStayAccepted,
  listPagesAddUp,
  listOrderHolds,
  listFiltersHold,
  listsAgreeWithTheWholeList,
  answersAgreeOnAUser,
  patchAnswersWhatWasAsked,
  updatedAtMovesOnlyOnAChange,
  userTimestampsHold,
  namesAreStoredTrimmed,
  deletedUsersStayGone,
  usersShownWereThere,
  invitedUsersKeepTheirStatus,
  conflictsAreForInvitedUsers,
  refusedPatchesChangeNothing,
  problemsPointIntoTheBody,
  problemsAreWordedAsAgreed,
]
