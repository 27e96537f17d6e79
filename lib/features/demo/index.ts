// Demo data: a realistic set of agent runs to explore an empty instance, marked and removable.
export { loadDemoData, type DemoLoadResult } from './load';
export { countDemoTraces, removeDemoData } from './remove';
export { DEMO_ID_PREFIX, DEMO_METADATA_KEY, DEMO_TAG } from './dataset';
