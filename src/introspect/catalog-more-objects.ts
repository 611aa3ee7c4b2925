// The kinds of objects defined by SQL read by modules of their own (statistics objects,
// collations, publications, subscriptions, foreign servers and tables, casts, conversions, range types, text search dictionaries and configurations, operator families and classes): their obj rows and their comments' rows, as catalog-objects.ts splices them in.
import { CAST_COMMENTS, CAST_OBJECTS } from './catalog-casts.js';
import { CONVERSION_COMMENTS, CONVERSION_OBJECTS } from './catalog-conversions.js';
import { SERVER_CODE_COMMENTS, SERVER_CODE_DEPS, SERVER_CODE_OBJECTS } from './catalog-server-code.js';
import { BASE_TYPE_OBJECTS } from './catalog-base-types.js';
import { TRIGGER_STATE_DEPS } from './catalog-triggers.js';
import { RELATION_SETTING_OBJECTS } from './catalog-relation-settings.js';
import { OPCLASS_COMMENTS, OPCLASS_DEPS, OPCLASS_OBJECTS } from './catalog-opclasses.js';
import { RANGE_TYPE_OBJECTS } from './catalog-range-types.js';
import { TEXT_SEARCH_COMMENTS, TEXT_SEARCH_OBJECTS } from './catalog-text-search.js';
import { COLLATION_COMMENTS, COLLATION_OBJECTS } from './catalog-collations.js';
import { FOREIGN_COMMENTS, FOREIGN_OBJECTS } from './catalog-foreign.js';
import { PUBLICATION_COMMENTS, PUBLICATION_OBJECTS } from './catalog-publications.js';
import { STATISTICS_COMMENTS, STATISTICS_OBJECTS } from './catalog-statistics.js';
import { SUBSCRIPTION_COMMENTS, SUBSCRIPTION_DEPS, SUBSCRIPTION_OBJECTS } from './catalog-subscriptions.js';
import { TYPE_PART_COMMENTS } from './catalog-type-comments.js';
import { EXTENSION_DEPENDENCY_OBJECTS } from './catalog-extension-dependencies.js';
import { OPERATOR_COMMENTS } from './catalog-operators.js';

/** UNION ALL branches of the obj CTE (over its anyrel). */
export const MORE_OBJECTS = `${STATISTICS_OBJECTS}${COLLATION_OBJECTS}${PUBLICATION_OBJECTS}${SUBSCRIPTION_OBJECTS}${FOREIGN_OBJECTS}${CAST_OBJECTS}${CONVERSION_OBJECTS}${RANGE_TYPE_OBJECTS}${TEXT_SEARCH_OBJECTS}${OPCLASS_OBJECTS}${EXTENSION_DEPENDENCY_OBJECTS}${SERVER_CODE_OBJECTS}${BASE_TYPE_OBJECTS}${RELATION_SETTING_OBJECTS}`;
/** UNION ALL branches of the comments (keyword, target, parent, description). */
export const MORE_COMMENTS = `${STATISTICS_COMMENTS}${COLLATION_COMMENTS}${PUBLICATION_COMMENTS}${SUBSCRIPTION_COMMENTS}${FOREIGN_COMMENTS}${CAST_COMMENTS}${CONVERSION_COMMENTS}${TEXT_SEARCH_COMMENTS}${OPCLASS_COMMENTS}${TYPE_PART_COMMENTS}${OPERATOR_COMMENTS}${SERVER_CODE_COMMENTS}`;
/** UNION ALL branches of the objdeps CTE (what uses an operator class or family; what a subscription receives). */
export const MORE_DEPS = `${OPCLASS_DEPS}${SUBSCRIPTION_DEPS}${SERVER_CODE_DEPS}${TRIGGER_STATE_DEPS}`;
