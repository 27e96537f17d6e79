// callContext.requestConfig: `key=value` pairs joined by `&`. Clients send it raw, in
// CDATA, or escaped once too often (`&amp;`, a literal `<![CDATA[...]]>`); all work.
export interface RequestConfig {
  /** adxwss.optreturn=JSON: resultXml holds JSON instead of XML. */
  json: boolean;
  /** adxwss.beautify=true: indented XML (and JSON). */
  beautify: boolean;
  /** adxwss.trace.on=on: technicalInfos adds database time and record counts. */
  trace: boolean;
}

const TRUE = new Set(['true', 'on', '1', 'yes']);

export function parseRequestConfig(raw: string | null | undefined): RequestConfig {
  const config: RequestConfig = { json: false, beautify: false, trace: false };
  if (!raw) return config;
  const text = raw
    .trim()
    .replace(/^<!\[CDATA\[/i, '')
    .replace(/\]\]>$/, '')
    .replace(/&amp;/gi, '&');
  for (const pair of text.split(/[&\r\n]/)) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const key = pair.slice(0, eq).trim().toLowerCase();
    const value = pair.slice(eq + 1).trim().toLowerCase();
    if (key === 'adxwss.optreturn') config.json = value === 'json';
    else if (key === 'adxwss.beautify') config.beautify = TRUE.has(value);
    else if (key === 'adxwss.trace.on') config.trace = TRUE.has(value);
    // Unknown keys (adxwss.trace.size, adxwss.flush, ...) are accepted and ignored.
  }
  return config;
}
