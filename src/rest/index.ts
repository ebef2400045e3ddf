/**
 * The REST layer's public face: what the layers above it (streams, the venue, the entry
 * point) may use. Everything else in `rest/` is private to it; `test/layers.test.ts`
 * fails the build when a file outside `rest/` imports anything but this module.
 *
 * @packageDocumentation
 */

export type * from './args.js'
// Argument checks shared with the streams, so a stream names a bad argument exactly as
// the REST method it calls would.
export {
  fail as failArgument,
  knownKeys,
  pathSegment as checkPathSegment,
  poolId as checkPoolId,
  source as checkSource,
  text as checkText,
} from './checks.js'
export { ENDPOINTS, type Endpoint, type EndpointGroup, type RestMethodName } from './endpoints.js'
export {
  DEFAULT_PARAM_NAMES,
  mergeParamNames,
  type ParamNames,
  type ParamNamesOverride,
} from './param-names.js'
// Query builders the streams key their pollers by.
export {
  depthQuery,
  INTERVAL_SECONDS,
  orderSegment,
  poolSegment,
  unsignedId,
} from './requests.js'
export {
  createRestClient,
  type RestClient,
  type RestClientDeps,
  type RestClientSettings,
} from './rest-client.js'
