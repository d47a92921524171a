export { translate as t } from '../shell/translate';
