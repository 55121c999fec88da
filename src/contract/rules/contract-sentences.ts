/**
 * Every normative sentence of docs/contract.md §1–§6, each with a stable id that the contract suite's
 * checks name as vitest tags (`test(title, covers('§2.unknown-token'), …)`), so that
 * docs/contract-coverage.md can say which checks prove which sentence. A sentence that cannot be tested
 * over HTTP carries the reason why instead. Ids stay stable when the prose is reworded; a new rule gets
 * a new id. The text is docs/contract.md's, shortened where a table row says it in cells.
 *
 * Most sentences are requirements on every implementation of their layer. A sentence marked `open` is a
 * choice the contract leaves to the implementation (docs/contract.md marks it *open*): no check asserts
 * one answer, and the suite is run against two implementations that answer it differently (the mock and
 * test/support/second-implementation/), whose answers `open` names.
 */
export interface ContractSentence {
  id: string
  text: string
  /** Why no check over HTTP can prove it; absent for every sentence a check must cover. */
  reason?: string
  /** A choice left open: the answers allowed, and what the mock and the second implementation answer. */
  open?: string
}

// prettier-ignore
export const CONTRACT_SENTENCES = [
  // ── §1 Resource: User
  { id: '§1.id', text: '[core] id: always present and never empty; opaque, a client must not take it apart.' },
  { id: '§1.email', text: '[core] email: always present, of format email.' },
  { id: '§1.email.unique', text: '[core] No two users of the whole service (not only of one organization) share an email, compared case-insensitively.' },
  { id: '§1.name', text: '[core] name: always present; 1 to 100 characters (Unicode code points) once white space is trimmed from both ends; stored trimmed.' },
  { id: '§1.name.white-space', text: "White space, for names, is exactly what ECMAScript's String.prototype.trim removes (Zs, TAB, VT, FF, LF, CR, U+2028, U+2029, U+FEFF). U+0085 is not white space." },
  { id: '§1.role', text: '[core] role: CLIENT_OWNER, CLIENT_ADMIN, CLIENT_VIEWER or BOT_USER.' },
  { id: '§1.organization-id', text: '[core] organizationId: always present and never empty; opaque.' },
  { id: '§1.mock-ids', text: 'The ids the mock hands out are usr_ (organizations: org_) followed by 20 lowercase base32 characters.', open: 'Any non-empty string: ids are opaque (§1). The mock: usr_ and org_ with 20 base32 characters; the second implementation: UUIDs for users, acme-ltd and org-7 for organizations (--id-style odd: ids a URL must escape).' },
  { id: '§1.status', text: 'status: ACTIVE, INVITED or SUSPENDED.' },
  { id: '§1.status.patch', text: '[core] PATCH can set status (which values: §4).' },
  { id: '§1.created-at', text: 'createdAt: date-time, RFC 3339 in UTC ending in Z; it never changes.' },
  { id: '§1.precision', text: 'Millisecond precision is recommended.', open: 'Any fraction of a second, or none. The mock: milliseconds; the second implementation: whole seconds (--timestamps millis gives milliseconds).' },
  { id: '§1.updated-at', text: 'updatedAt: the same format; every PATCH that changes a field moves it; it is never earlier than createdAt.' },
  { id: '§1.extra-fields', text: 'A user in a response may carry fields beyond these eight, and clients ignore the ones they do not know.', open: 'More fields or none. The mock: the eight; the second implementation: locale and lastSeenAt on users, hasMore in meta, kind beside data (--extra-fields no leaves them out).' },
  { id: '§1.no-extra-request-fields', text: 'A request may not add any field (see PATCH in §4).' },

  // ── §2 Authentication [core]
  { id: '§2.header-required', text: '[core] No endpoint answers without Authorization: Bearer <token>.' },
  { id: '§2.identity-from-token', text: '[core] The token alone tells who the caller is: their user, their role and their organization.' },
  { id: '§2.missing-header', text: '[core] The answer is 401 when the Authorization header is missing.' },
  { id: '§2.other-scheme', text: '[core] The answer is 401 when the scheme is not Bearer.' },
  { id: '§2.empty-token', text: '[core] The answer is 401 when the Bearer token is empty.' },
  { id: '§2.unknown-token', text: '[core] The answer is 401 when the token is unknown.' },
  { id: '§2.www-authenticate', text: '[core] Every such 401 carries WWW-Authenticate: Bearer (RFC 6750).' },
  { id: '§2.challenge-parameters', text: 'The Bearer challenge may carry parameters of RFC 6750 besides error, such as realm.', open: 'Any auth-params of RFC 6750. The mock: none but error; the second implementation: realm="users" (--realm no leaves it out).' },
  { id: '§2.invalid-token', text: '[core] WWW-Authenticate adds error="invalid_token" when, and only when, a non-empty Bearer token was sent and refused.' },
  { id: '§2.suspended-token', text: '[core] The token of a SUSPENDED user counts as invalid: 401.' },
  { id: '§2.invited-token', text: '[core] The token of an INVITED user counts as invalid: 401.' },
  { id: '§2.suspension-keeps-token', text: '[core] Suspending a user does not revoke their token: when the user is ACTIVE again, the same token is accepted again.' },
  { id: '§2.deleted-token', text: '[core] Deleting a user takes their access away immediately: from then on their token gets 401.' },
  { id: '§2.scheme-case', text: 'The scheme name matches case-insensitively (bearer is Bearer).' },
  { id: '§2.token-white-space', text: 'Only spaces and tabs around the token are ignored, so a token followed by a no-break space (U+00A0) is an unknown token.' },

  // ── §3 Who may do what: the table, both directions
  { id: '§3.me.allows', text: 'GET /api/users/me: yes for every role.' },
  { id: '§3.list.allows', text: 'GET /api/users: yes for CLIENT_OWNER, CLIENT_ADMIN and CLIENT_VIEWER.' },
  { id: '§3.list.refuses', text: 'GET /api/users: 403 for BOT_USER.' },
  { id: '§3.read.allows', text: 'GET /api/users/:id: yes for CLIENT_OWNER, CLIENT_ADMIN and CLIENT_VIEWER; BOT_USER own only.' },
  { id: '§3.read.refuses', text: 'GET /api/users/:id: BOT_USER 403 on anyone but itself.' },
  { id: '§3.name.allows', text: 'PATCH name: yes for CLIENT_OWNER (on anyone, owners included); CLIENT_ADMIN yes except on an owner; CLIENT_VIEWER and BOT_USER own only.' },
  { id: '§3.name.refuses', text: 'PATCH name: CLIENT_ADMIN 403 on an owner; CLIENT_VIEWER and BOT_USER 403 on anyone but themselves.' },
  { id: '§3.role-status.allows', text: 'PATCH role or status: yes for CLIENT_OWNER (on anyone, owners included, to any role); CLIENT_ADMIN yes except on an owner and except to the role CLIENT_OWNER.' },
  { id: '§3.role-status.refuses', text: 'PATCH role or status: CLIENT_ADMIN 403 on an owner and to the role CLIENT_OWNER; CLIENT_VIEWER and BOT_USER 403.' },
  { id: '§3.delete.allows', text: 'DELETE /api/users/:id: yes for CLIENT_OWNER (owners included); CLIENT_ADMIN yes except on an owner.' },
  { id: '§3.delete.refuses', text: 'DELETE /api/users/:id: CLIENT_ADMIN 403 on an owner; CLIENT_VIEWER and BOT_USER 403.' },
  { id: '§3.self.role-status', text: 'A caller never changes their own role or status: 403, even if the value sent is the one already stored.' },
  { id: '§3.self.delete', text: 'A caller never deletes themselves: 403.' },
  { id: '§3.other-organization', text: 'An id that belongs to another organization is 404 for every caller, including callers whose role would be refused the operation in any case: existence is never revealed across organizations.' },
  { id: '§3.unknown-id', text: 'An id that belongs to nobody is 404 for every caller, including callers whose role would be refused the operation in any case.' },
  { id: '§3.invalid-id', text: 'An id that cannot be a user id at all (not validly percent-encoded, or longer than 4,096 characters) is a 400 whose errors item is { "in": "path", "path": "/id" }.' },
  { id: '§3.other-ids', text: "Every other id that names no user of the caller's organization is a 404." },

  // ── §3 The order of checks: each adjacent pair, on every route
  { id: '§3.order', text: 'A request that breaks several rules gets the answer of the first check it fails, in the order of the table, on every route: the documented ones, /api/users/me, and methods the document does not list.' },
  { id: '§3.order.401-before-route', text: 'Step 1 before step 2: authentication (401) comes before route and method (404, 405).' },
  { id: '§3.order.route-before-413', text: 'Step 2 before step 3: route and method (404, 405) come before body size (413).' },
  { id: '§3.order.413-before-415', text: 'Step 3 before step 4: body size (413) comes before media type and content encoding (415).' },
  { id: '§3.order.415-before-400', text: 'Step 4 before step 5: media type and content encoding (415) come before validation (400).' },
  { id: '§3.order.400-before-404', text: "Step 5 before step 6: validation of path, query and body (400) comes before the target's existence (404)." },
  { id: '§3.order.404-before-403', text: "Step 6 before step 7: the target's existence in the caller's organization (404) comes before permission (403)." },
  { id: '§3.order.403-before-409', text: 'Step 7 before step 8: permission (403) comes before the state rule (409).' },
  { id: '§3.order.examples', text: "So a bot's list request with an invalid query gets 400, not 403; a viewer's PATCH with a bad body gets 400; and an id that cannot be an id is a 400 that comes after 405, 413 and 415." },

  // ── §4 Endpoints
  { id: '§4.paths', text: 'Paths are relative to the base URL and carry no version segment.' },
  { id: '§4.json', text: 'JSON bodies are application/json, in UTF-8.' },
  { id: '§4.json.charset', text: 'The charset=utf-8 parameter of a JSON media type may be given or left out (UTF-8 is JSON\'s only encoding, RFC 8259).', open: 'With or without charset=utf-8. The mock: with it; the second implementation: without it (--charset yes adds it).' },
  { id: '§4.envelope', text: 'The body of every success is an envelope whose key is data ([core] for /api/users/me).' },
  { id: '§4.bodies.413', text: 'A request body over 16 KiB (16,384 bytes) is 413, in its place in §3\'s order, whatever its media type, GET and DELETE included.' },
  { id: '§4.bodies.ignored', text: 'Where the operation reads no body (every one but PATCH /api/users/:id), a smaller body is ignored, and so are its Content-Type and Content-Encoding.' },

  { id: '§4.list.exists', text: '[core] GET /api/users exists, with the parameters page, limit, role and search.' },
  { id: '§4.list.page', text: 'page: an integer, default 1, from 1 to 9007199254740991 (2^53 − 1).' },
  { id: '§4.list.limit', text: 'limit: an integer, default 20, from 1 to 100.' },
  { id: '§4.list.role', text: 'role: one of the four roles; keeps the users whose role is equal to it.' },
  { id: '§4.list.search', text: 'search: at most 100 characters; keeps the users whose name or email contains it, ignoring case (both sides lower-cased, independently of any locale); empty means no filter.' },
  { id: '§4.list.out-of-range', text: 'A value outside its range or of the wrong type is 400; values are never clamped and never rounded.' },
  { id: '§4.list.decimal', text: 'Integers are written in decimal digits and nothing else: +5, 1e1, 0x10, 1.0 and an empty value are 400, while leading zeros are accepted (page=007 is page 7).' },
  { id: '§4.list.repeated', text: 'A known parameter that appears twice (page=1&page=2) is 400.' },
  { id: '§4.list.unknown-params', text: 'Parameters the operation does not know are ignored, repeated or not.' },
  { id: '§4.list.search.as-sent', text: 'search: the term as sent, not trimmed; a term of white space alone is a term like any other, not an empty one.' },
  { id: '§4.list.search.lower-case', text: 'search lower-cases each code point as Unicode maps it, and folds nothing more: accents and other marks stay, so zoe does not find Zoë (nor zoë Zoe), while ZOË does.' },
  { id: '§4.list.search.mapping', text: "Where Unicode's full and simple lower-case mappings differ (İ to i̇ or to i; a final Σ to ς or to σ), either is correct.", open: "Either mapping. The mock: the full one (JavaScript's toLowerCase); the second implementation: the full one (Python's str.lower()), and with --lower simple the simple one (İ to i, every Σ to σ)." },
  { id: '§4.list.enum-case', text: 'Enumerations are case-sensitive: role=client_viewer is 400.' },
  { id: '§4.list.order', text: 'The users come in createdAt ascending order, ties broken by id ascending (plain string comparison); the order does not move between pages as long as nothing changes.' },
  { id: '§4.list.every-status', text: 'The list holds users of every status.' },
  { id: '§4.list.own-organization', text: "The list holds users all from the caller's organization and never from another." },
  { id: '§4.list.answer', text: '200 { data: [User, ...], meta: { page, limit, total, totalPages } }: total is the number of all matching users, totalPages is ceil(total / limit), and 0 when total is 0.' },
  { id: '§4.list.past-the-end', text: 'A page beyond the last one is a 200 whose data is [].' },

  { id: '§4.me.answer', text: '[core] GET /api/users/me: 200 { data: User }, the caller.' },
  { id: '§4.me.fixed', text: '[core] me is a fixed segment of the path; it is never looked up as an id.' },
  { id: '§4.me.405', text: '[core] PATCH and DELETE on /api/users/me are 405, with Allow: GET.' },

  { id: '§4.get.exists', text: '[core] GET /api/users/:id exists, with the path parameter id.' },
  { id: '§4.get.any-status', text: "GET /api/users/:id: 200 { data: User } for a user of the caller's organization, whatever their status; otherwise 404 or 400 as §3 says." },

  { id: '§4.patch.attributes', text: '[core] PATCH /api/users/:id: name, role and status are the attributes it updates.' },
  { id: '§4.patch.body', text: 'The body is a JSON object with at least one of the keys name, role and status, and no other key.' },
  { id: '§4.patch.status-values', text: 'status takes ACTIVE or SUSPENDED only: INVITED is the state users are created in, and is never set.' },
  { id: '§4.patch.415', text: 'PATCH is 415 when the Content-Type header is absent (whether or not a body was sent) or names anything but application/json.' },
  { id: '§4.patch.media-type-case', text: 'Media types compare case-insensitively and parameters such as charset=utf-8 are accepted (RFC 9110).' },
  { id: '§4.patch.content-encoding', text: 'A Content-Encoding other than identity is also 415.' },
  { id: '§4.patch.400', text: 'PATCH is 400 when there is no body, or its bytes are not UTF-8, or they are not JSON, or the JSON is not an object, or the object is empty, has an unknown key, or a key of the wrong type or value (null included).' },
  { id: '§4.patch.name-no-op', text: 'A name that equals the stored one once the white space around it is removed changes nothing.' },
  { id: '§4.patch.409', text: 'State rule, 409 INVALID_TRANSITION: PATCH never changes the status of an INVITED user.' },
  { id: '§4.patch.409-changes-nothing', text: 'A PATCH answered 409 changed nothing, the valid part of its body included: a patch is applied whole or not at all (RFC 5789 §2).' },
  { id: '§4.patch.active-suspended', text: 'ACTIVE and SUSPENDED may turn into each other freely.' },
  { id: '§4.patch.same-value', text: 'Setting a field to the value it already has is allowed, and changes nothing: updatedAt keeps its value.' },
  { id: '§4.patch.answer', text: 'PATCH: 200 { data: User }, the user as they are after the change.' },

  { id: '§4.delete.exists', text: '[core] DELETE /api/users/:id exists, with the path parameter id.' },
  { id: '§4.delete.answer', text: 'DELETE: 204, with an empty body; a request body is ignored (but one over 16 KiB is 413, as on every route).' },
  { id: '§4.delete.after', text: 'From then on GET and DELETE of that id are 404, the user is missing from the list, and their token gets 401.' },
  { id: '§4.delete.active-owner-stays', text: 'Only owners act on owners, and nobody acts on themselves; so an organization is never left without an active owner.' },

  { id: '§4.other.405', text: 'Any other method on a documented path (POST /api/users, PUT /api/users/:id, …) is 405, and Allow names the methods the document gives that path.' },
  { id: '§4.other.allow-order', text: 'Allow lists the methods in any order, and may add HEAD and OPTIONS.', open: 'Any order, with or without HEAD and OPTIONS. The mock: GET, DELETE, PATCH; the second implementation: PATCH, GET, DELETE, HEAD, OPTIONS (--allow-order and --allow-extras change it).' },
  { id: '§4.other.404', text: 'Any other path under /api is 404 with the code NOT_FOUND, once the caller is authenticated (without a valid token it is a 401); /api/users/ with a trailing slash is such a path.' },
  { id: '§4.other.head', text: 'HEAD gets the answer GET would get, without the body (RFC 9110).' },
  { id: '§4.other.options', text: 'OPTIONS belongs to CORS (the preflight) and this contract does not cover it.', reason: 'The contract leaves OPTIONS to CORS: there is nothing of the users API to check.' },

  // ── §5 Errors
  { id: '§5.problem', text: 'Every error, 4xx or 5xx, is an RFC 9457 problem, of media type application/problem+json.' },
  { id: '§5.problem.fields', text: 'type is a URI reference; when it is about:blank, title is the reason phrase of the status (RFC 9457 §4.2.1); detail is a non-empty text for people.' },
  { id: '§5.problem.types', text: 'Any other type is the implementation\'s own problem type, and title is that type\'s own short summary.', open: 'about:blank or problem types of one\'s own, and any wording of detail. The mock: about:blank with the reason phrases; the second implementation: typed URIs with titles of its own (--problem-type blank gives about:blank).' },
  { id: '§5.problem.status', text: 'status is a number, the same as the HTTP status.' },
  { id: '§5.errors', text: 'errors appears on 400s and on nothing else: a non-empty array of { in: body | query | path | header, path: JSON pointer, message: string }.' },
  { id: '§5.errors.pointer', text: 'For body the pointer points into the body ("" is the whole body, /name a key); for the other places it names the parameter (/page, /id).' },
  { id: '§5.errors.escaped', text: 'A key that holds ~ or / is escaped in a pointer as RFC 6901 says (~0, ~1).' },
  { id: '§5.errors.at-most-100', text: "The project lists at most 100 issues (the document's maxItems); when a request has more, detail says how many there were." },
  { id: '§5.errors.counting', text: "How issues are counted is the implementation's choice, so the count is at least the number of issues listed.", open: 'Any count at least the number listed. The mock: one issue an unknown key (150 for 150 keys); the second implementation: one more, "give at least one of name, role, status" (151; --count-required-issue no gives 150).' },
  { id: '§5.codes', text: 'The code of each status: 400 VALIDATION_FAILED, 401 UNAUTHENTICATED, 403 FORBIDDEN, 404 USER_NOT_FOUND (an unknown route: NOT_FOUND), 405 METHOD_NOT_ALLOWED, 409 INVALID_TRANSITION, 413 PAYLOAD_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE.' },
  { id: '§5.429-503', text: '429 RATE_LIMITED and 503 SERVICE_UNAVAILABLE carry Retry-After, a number of seconds.', reason: 'Nothing a client sends makes a correct backend limit its rate or fail; the response-level check retry-after-on-429 holds any such answer that does come to the rule.' },
  { id: '§5.500', text: '500 INTERNAL is never expected, and the body never holds a stack trace.' },
  { id: '§5.400-changes-nothing', text: 'A request answered 400 changed nothing.' },

  // ── §6 Events (profile)
  { id: '§6.updated', text: 'user.updated follows a PATCH that changed at least one field.' },
  { id: '§6.nothing', text: 'A PATCH that changes nothing, and any refused request, send no event.' },
  { id: '§6.deleted', text: 'user.deleted follows a DELETE answered 204.' },
  { id: '§6.payload', text: 'The payload has the Standard Webhooks shape: { type, timestamp (RFC 3339), data }.' },
  { id: '§6.updated.data', text: 'For user.updated, data is { user (as changed), changes (the fields changed), actorId }.' },
  { id: '§6.deleted.data', text: 'For user.deleted, data is { user (as it was before), actorId }.' },
  { id: '§6.unknown-fields', text: 'Consumers ignore fields they do not know.', open: 'Payloads may carry more fields. The mock: none beyond the document\'s; the second implementation: the event\'s id beside type, timestamp and data (--extra-fields no leaves it out).' },
  { id: '§6.endpoints', text: "The payload is POSTed to every endpoint subscribed for the user's organization." },
  { id: '§6.visible', text: 'It is POSTed once the change can be seen through the API.' },
  { id: '§6.signature', text: "It is signed as Standard Webhooks signs: webhook-id (one per event, unchanged on retries), webhook-timestamp (Unix seconds) and webhook-signature (v1, and the base64 HMAC-SHA256 of id.timestamp.body keyed with the endpoint's whsec_ secret)." },
  { id: '§6.delivered', text: 'An endpoint that answers 2xx within 15 s has received the event.', reason: 'Delivery is at least once: a backend may deliver an event again, so no receiver can tell a sender that gave up early from one that delivers twice.' },
  { id: '§6.retry', text: 'Any other outcome is retried, with longer and longer waits, at least 3 times.' },
  { id: '§6.retry-schedule', text: 'The waits between retries grow; how long they are is the implementation\'s.', open: 'Any growing schedule (the target\'s retryWithinSeconds says how long the suite waits for each). The mock: 100 ms, 250 ms, 500 ms, 1 s, 5 s, 15 s, 60 s; the second implementation: 1 s, 2 s, 4 s, 8 s, 16 s.' },
  { id: '§6.at-least-once', text: 'Delivery is at least once, so receivers deduplicate on webhook-id.', reason: 'A duty of receivers: a sender may repeat any delivery, so no answer breaks it.' },
  { id: '§6.order', text: "The events of one user go out in the order of that user's changes." },
  { id: '§6.never-delays', text: "Delivering never slows down or alters the API's own answer." },
  { id: '§6.subscribe', text: 'How an endpoint subscribes is outside the users API.', reason: 'It is not part of the users API: there is nothing to check over it.' },
  { id: '§6.document', text: 'The document declares both events under webhooks, with their payload schemas and the three delivery headers.' },
] as const satisfies readonly ContractSentence[]

/** The id of a sentence of docs/contract.md, as checks name it. */
export type SentenceId = (typeof CONTRACT_SENTENCES)[number]['id']
