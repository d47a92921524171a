/**
 * How the connectors that speak to a web API (Databricks, Slack, Bitbucket, the cloud stores) call
 * it: one place for the reach guard, the time limit, the retries and the wording of failures, so
 * that every service fails alike: "Databricks: Invalid access token (HTTP 403)", "Slack could not
 * reach the service at hooks.slack.com:443", "Bitbucket did not answer within 15 s".
 *
 * Every call goes through the reach guard (server/reach): the host is checked before it is
 * dialled, and so is every host a redirect would lead to. What a service answers is never handed
 * back as it came: a failure carries at most 200 characters of the service's own error field
 * (Slack's `error`, Databricks' `message`, S3's `Code`…), and a service that cannot be reached —
 * refused, closed, or something other than HTTP on that port — reads the same whatever the cause,
 * so that a company cannot map a network through the wording of the errors.
 *
 * A call the service answers 429 is tried again, as it asks. A 5xx or a connection closed under
 * the call is tried again only when sending the call twice does no harm: GET, HEAD, OPTIONS, PUT
 * and DELETE, a request with an `Idempotency-Key` header, or one its caller marks `idempotent`.
 * A Slack message is never posted twice because a proxy answered 502 after Slack had posted it.
 */

export { callService, callServiceJson, openServiceStream } from './call';
export { formatSeconds, withDeadline } from './deadline';
export { hostAndPort, kindOfStatus, SERVICE_WORDS_MAX, ServiceAnswerError, serviceWords, unreachableError, wordsWithCode } from './errors';
export { RETRY_DEFAULTS, retryAfterMs, sleep } from './retry';
export { HTTP_TIMEOUT_MS, type HttpAnswer, type HttpOptions, type HttpRequest, type HttpService, type HttpStream } from './types';
export { secureBaseUrl, serviceUrl } from './urls';
