// How many of a window's trace names (agents) the fleet paths name when no name is asked for.
export const AGENT_NAMES_SHOWN = 20;
