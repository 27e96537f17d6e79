// The requests of the golden test (golden.test.ts), also replayed against node-soap's
// own reading by parts-oracle.test.ts.
import { makeTrace } from '@/test/support/fixtures';
import { STYLES, int, keys, str, type Ctx, type Part } from '@/test/support/soap';

export const KEY = 'golden-key';
const good: Ctx = { codeUser: 'golden', password: KEY };
const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';
const NS = `xmlns:soapenv="${SOAP}" xmlns:wss="urn:crossroads:wss" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"`;
const CTX = `<callContext><codeUser>u</codeUser><password>${KEY}</password></callContext>`;

/** A hand-written envelope: `inner` inside <wss:op>. */
const env = (op: string, inner: string, extra = '') =>
  `<soapenv:Envelope ${NS}>${extra}<soapenv:Body><wss:${op}>${inner}</wss:${op}></soapenv:Body></soapenv:Envelope>`;
const withCtx = (op: string, inner: string) => env(op, CTX + inner);
const query = (listSize: string, name = 'TRACE', filters = '<objectKeys/>') =>
  withCtx('query', `<publicName>${name}</publicName>${filters}${listSize}`);

const trace = (id: string, extra: Record<string, unknown> = {}) => JSON.stringify(makeTrace({ id, ...extra }));

const PARAM_TRACE =
  '<PARAM><GRP ID="TRACE"><FLD NAME="id">g-param</FLD><FLD NAME="name">a &lt;b&gt; &amp; "c"</FLD><FLD NAME="status">RUNNING</FLD>' +
  '<FLD NAME="startedAt">2026-01-02T03:04:05.000Z</FLD><FLD NAME="metadata">{"k":[1,2]}</FLD><FLD NAME="bogus">x</FLD>' +
  '<LST NAME="tags"><ITM>a</ITM><ITM>b</ITM></LST></GRP>' +
  '<TAB ID="SPANS"><LIN NUM="1"><FLD NAME="id">s1</FLD><FLD NAME="name">n</FLD><FLD NAME="type">LLM</FLD><FLD NAME="status">COMPLETED</FLD>' +
  '<FLD NAME="startedAt">2026-01-02T03:04:05.000Z</FLD><FLD NAME="tokenCount">12</FLD></LIN></TAB><TAB ID="NOPE"/></PARAM>';

export function styled(): [string, string][] {
  const cases: [string, string][] = [];
  for (const [style, make] of Object.entries(STYLES)) {
    const c = (name: string, op: string, parts: Part[], ctx: Ctx = good) => cases.push([`${style} ${name}`, make(op, ctx, parts)]);
    const id = `g-${style}`;
    c('save TRACE json', 'save', [str('publicName', 'TRACE'), str('objectXml', trace(id, { sessionId: `sess-${style}`, tags: ['prod', style] }))]);
    c('save TRACE duplicate', 'save', [str('publicName', 'TRACE'), str('objectXml', trace(id))]);
    c('read TRACE', 'read', [str('publicName', 'TRACE'), keys('objectKeys', [['id', id]])]);
    c('read TRACE json', 'read', [str('publicName', 'TRACE'), keys('objectKeys', [['id', id]])], { ...good, requestConfig: 'adxwss.optreturn=JSON&adxwss.beautify=true' });
    c('read TRACE beautify trace', 'read', [str('publicName', 'trace'), keys('objectKeys', [['id', id]])], { ...good, requestConfig: 'adxwss.beautify=true&amp;adxwss.trace.on=on' });
    c('read TRACE missing', 'read', [str('publicName', 'TRACE'), keys('objectKeys', [['id', 'nope']])]);
    c('query TRACE', 'query', [str('publicName', 'TRACE'), keys('objectKeys', [['status', 'COMPLETED'], ['tag', 'prod']]), int('listSize', 10)]);
    c('query TRACE json', 'query', [str('publicName', 'TRACE'), keys('objectKeys', [['sessionId', `sess-${style}`]]), int('listSize', 5)], { ...good, requestConfig: 'adxwss.optreturn=JSON' });
    c('query TRACE search', 'query', [str('publicName', 'TRACE'), keys('objectKeys', [['search', 'AGENT'], ['status', '']]), int('listSize', 2)]);
    c('query TRACE bad status', 'query', [str('publicName', 'TRACE'), keys('objectKeys', [['status', 'DONE']]), int('listSize', 2)]);
    c('query TRACE unknown filter', 'query', [str('publicName', 'TRACE'), keys('objectKeys', [['colour', 'red']]), int('listSize', 2)]);
    c('query TRACE listSize 0', 'query', [str('publicName', 'TRACE'), keys('objectKeys', []), int('listSize', 0)]);
    c('query TRACE listSize 5000', 'query', [str('publicName', 'TRACE'), keys('objectKeys', []), int('listSize', 5000)]);
    c('query SPAN', 'query', [str('publicName', 'SPAN'), keys('objectKeys', [['traceId', id], ['type', 'LLM']]), int('listSize', 10)]);
    c('query SPAN no traceId', 'query', [str('publicName', 'SPAN'), keys('objectKeys', []), int('listSize', 10)]);
    c('read SPAN', 'read', [str('publicName', 'SPAN'), keys('objectKeys', [['traceId', id], ['id', 's1']])]);
    c('read DECISION', 'read', [str('publicName', 'DECISION'), keys('objectKeys', [['traceId', id], ['id', 'd1']])]);
    c('query DECISION', 'query', [str('publicName', 'DECISION'), keys('objectKeys', [['traceId', id], ['type', 'TOOL_SELECTION']]), int('listSize', 3)]);
    c('query EVENT', 'query', [str('publicName', 'EVENT'), keys('objectKeys', [['traceId', id]]), int('listSize', 3)], { ...good, requestConfig: 'adxwss.optreturn=JSON' });
    c('read EVENT unknown key', 'read', [str('publicName', 'EVENT'), keys('objectKeys', [['traceId', id], ['id', 'e1'], ['x', '1']])]);
    c('getDescription all', 'getDescription', [str('publicName', '')]);
    c('getDescription TRACE', 'getDescription', [str('publicName', 'TRACE')]);
    c('getDescription SCORE json', 'getDescription', [str('publicName', 'SCORE')], { ...good, requestConfig: 'adxwss.optreturn=JSON' });
    c('getDescription unknown', 'getDescription', [str('publicName', 'NOPE')]);
    c('run TRACE_STATS', 'run', [str('publicName', 'TRACE_STATS'), str('inputXml', `<PARAM><FLD NAME="sessionId">sess-${style}</FLD><FLD NAME="x">1</FLD></PARAM>`)]);
    c('run TRACE_STATS window', 'run', [str('publicName', 'TRACE_STATS'), str('inputXml', '<PARAM><GRP ID="PARAM"><FLD NAME="from">2026-01-01T00:00:00Z</FLD><FLD NAME="to"> 2026-01-03T00:00:00Z </FLD></GRP></PARAM>')]);
    c('run TRACE_STATS bad date', 'run', [str('publicName', 'TRACE_STATS'), str('inputXml', '<PARAM><FLD NAME="from">yesterday</FLD></PARAM>')]);
    c('run DECISION_STATS', 'run', [str('publicName', 'DECISION_STATS'), str('inputXml', '<PARAM><FLD NAME="from">2026-01-01T00:00:00Z</FLD><FLD NAME="to">2026-01-03T00:00:00Z</FLD><FLD NAME="tag">prod</FLD><FLD NAME="extra">1</FLD></PARAM>')]);
    c('run DECISION_STATS json', 'run', [str('publicName', 'DECISION_STATS'), str('inputXml', `<PARAM><FLD NAME="from">2026-01-01T00:00:00Z</FLD><FLD NAME="to">2026-01-03T00:00:00Z</FLD><FLD NAME="name">support-agent run</FLD><FLD NAME="tag" NULL="true"/></PARAM>`)], { ...good, requestConfig: 'adxwss.optreturn=JSON' });
    c('run DECISION_STATS bad from', 'run', [str('publicName', 'DECISION_STATS'), str('inputXml', '<PARAM><FLD NAME="from">soon</FLD></PARAM>')]);
    c('run DECISION_STATS LST', 'run', [str('publicName', 'DECISION_STATS'), str('inputXml', '<PARAM><LST NAME="tag"><ITM>a</ITM></LST></PARAM>')]);
    c('run DECISION_STATS to before from', 'run', [str('publicName', 'DECISION_STATS'), str('inputXml', '<PARAM><FLD NAME="from">2026-01-03T00:00:00Z</FLD><FLD NAME="to">2026-01-01T00:00:00Z</FLD></PARAM>')]);
    c('run SCORE', 'run', [str('publicName', 'SCORE'), str('inputXml', `<PARAM><FLD NAME="TRACE_ID">${id}</FLD><FLD NAME="NAME">quality</FLD><FLD NAME="VALUE">0.5</FLD><FLD NAME="COMMENT">ok</FLD></PARAM>`)]);
    c('run SCORE bad', 'run', [str('publicName', 'SCORE'), str('inputXml', `<PARAM><FLD NAME="TRACE_ID">${id}</FLD><FLD NAME="NAME">quality</FLD><FLD NAME="VALUE">x</FLD><FLD NAME="DATA_TYPE">numeric</FLD></PARAM>`)]);
    c('run SCORE no trace', 'run', [str('publicName', 'SCORE'), str('inputXml', '<PARAM><FLD NAME="TRACE_ID">nope</FLD><FLD NAME="NAME">q</FLD><FLD NAME="VALUE">true</FLD></PARAM>')]);
    c('run HEALTH', 'run', [str('publicName', 'HEALTH'), str('inputXml', '<PARAM><FLD NAME="x">1</FLD></PARAM>')]);
    c('run TRACE unsupported', 'run', [str('publicName', 'TRACE'), str('inputXml', '')]);
    c('save SPAN unsupported', 'save', [str('publicName', 'SPAN'), str('objectXml', '{}')]);
    c('read HEALTH unsupported', 'read', [str('publicName', 'HEALTH'), keys('objectKeys', [])]);
    c('wrong password', 'read', [str('publicName', 'TRACE'), keys('objectKeys', [['id', id]])], { codeUser: 'mallory', password: 'wrong' });
    c('nil password', 'save', [str('publicName', 'TRACE'), str('objectXml', '{}')], { codeUser: 'mallory', password: null, requestConfig: 'adxwss.trace.on=on' });
    c('nil publicName', 'getDescription', [str('publicName', null)]);
  }
  return cases;
}

const save = (objectXml: string) => withCtx('save', `<publicName>TRACE</publicName><objectXml>${objectXml}</objectXml>`);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const SHAPES: [string, string][] = [
  // saves
  ['save PARAM', save(esc(PARAM_TRACE))],
  ['save PARAM CDATA', save(`<![CDATA[${PARAM_TRACE.replace('g-param', 'g-param-cdata')}]]>`)],
  ['save PARAM CDATA with xml declaration', save(`<![CDATA[<?xml version="1.0"?>${PARAM_TRACE.replace('g-param', 'g-param-decl')}]]>`)],
  ['save CDATA with broken xml declaration', save(`<![CDATA[<?xml version="1.0"?><PARAM>]]>`)],
  ['save PARAM round trip of RESULT', save(esc('<RESULT><GRP ID="TRACE"><FLD NAME="id">g-rt</FLD><FLD NAME="name">rt</FLD><FLD NAME="status">COMPLETED</FLD><FLD NAME="startedAt">2026-01-02T03:04:05.000Z</FLD><FLD NAME="createdAt">2026-01-09T00:00:00.000Z</FLD><LST NAME="tags"/></GRP></RESULT>'))],
  ['save empty', save('')],
  ['save spaces', save('   ')],
  ['save nil', withCtx('save', '<publicName>TRACE</publicName><objectXml xsi:nil="true"/>')],
  ['save absent objectXml', withCtx('save', '<publicName>TRACE</publicName>')],
  ['save broken JSON', save('{"id": ')],
  ['save broken XML', save(esc('<PARAM><GRP>'))],
  ['save bad Json field', save(esc('<PARAM><FLD NAME="id">g-bad</FLD><FLD NAME="metadata">{x</FLD></PARAM>'))],
  ['save invalid trace', save(esc(JSON.stringify({ id: 'g-invalid', name: 'x', status: 'NOPE', startedAt: 'never' })))],
  ['save JSON with spaces around', save(`  ${esc(trace('g-spaced'))}  `)],
  ['save JSON text runs with comment', save(`${esc(trace('g-runs')).slice(0, 20)}<!-- c -->${esc(trace('g-runs')).slice(20)}`)],
  ['save JSON typed text runs with comment', withCtx('save', `<publicName>TRACE</publicName><objectXml xsi:type="xsd:string">${esc(trace('g-typed')).slice(0, 20)}<!-- c -->${esc(trace('g-typed')).slice(20)}</objectXml>`)],
  ['save too many children', save(esc(JSON.stringify(makeTrace({ id: 'g-many', spans: Array.from({ length: 501 }, (_, i) => ({ id: `s${i}`, name: 'n', type: 'LLM', status: 'COMPLETED', startedAt: '2026-01-02T03:04:05.000Z' })) }))))],
  ['save JSON array', save('[1]')],
  ['save XML other root', save(esc('<OTHER/>'))],
  // publicName shapes
  ['publicName runs', withCtx('getDescription', '<publicName>TR<!-- x -->ACE</publicName>')],
  ['publicName typed runs', withCtx('getDescription', '<publicName xsi:type="xsd:string">TR<!-- x -->ACE</publicName>')],
  ['publicName inner spaces', withCtx('getDescription', '<publicName> TR ACE </publicName>')],
  ['publicName CDATA and text', withCtx('getDescription', '<publicName> <![CDATA[ TR]]>ACE</publicName>')],
  ['publicName lower', withCtx('getDescription', '<publicName>span</publicName>')],
  ['publicName structure', withCtx('getDescription', '<publicName><a>1</a></publicName>')],
  ['publicName text then child', withCtx('getDescription', '<publicName>x<a>1</a></publicName>')],
  ['publicName child then text', withCtx('getDescription', '<publicName><a>1</a>TRACE</publicName>')],
  ['publicName twice', withCtx('getDescription', '<publicName>TRACE</publicName><publicName>SPAN</publicName>')],
  ['publicName nil TRUE', withCtx('getDescription', '<publicName xsi:nil="TRUE">TRACE</publicName>')],
  ['publicName nil 1', withCtx('getDescription', '<publicName xsi:nil="1">TRACE</publicName>')],
  ['publicName nil spaced', withCtx('getDescription', '<publicName xsi:nil=" true">TRACE</publicName>')],
  ['publicName nil false', withCtx('getDescription', '<publicName xsi:nil="false">TRACE</publicName>')],
  ['publicName nil other prefix', withCtx('getDescription', '<publicName xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:nil="true">TRACE</publicName>')],
  ['publicName nil unbound-like prefix', withCtx('getDescription', '<publicName xmlns:q="urn:q" q:nil="true">TRACE</publicName>')],
  ['publicName empty', withCtx('getDescription', '<publicName/>')],
  ['publicName empty typed', withCtx('getDescription', '<publicName xsi:type="xsd:string"></publicName>')],
  ['publicName qualified', env('getDescription', `<wss:callContext><wss:password>${KEY}</wss:password></wss:callContext><wss:publicName>HEALTH</wss:publicName>`)],
  ['publicName href', env('getDescription', `${CTX}<publicName href="#p"/>`).replace('</soapenv:Body>', '<x id="p">HEALTH</x></soapenv:Body>')],
  ['publicName href missing', env('getDescription', `${CTX}<publicName href="#none"/>`)],
  ['publicName entities', withCtx('getDescription', '<publicName>&#84;R&#x41;CE</publicName>')],
  ['publicName absent', withCtx('getDescription', '')],
  ['publicName int typed', withCtx('getDescription', '<publicName xsi:type="xsd:int">12</publicName>')],
  // callContext shapes
  ['callContext absent', env('getDescription', '<publicName>TRACE</publicName>')],
  ['callContext twice', env('getDescription', `${CTX}${CTX}<publicName>TRACE</publicName>`)],
  ['callContext text', env('getDescription', `<callContext>${KEY}</callContext><publicName>TRACE</publicName>`)],
  ['callContext empty', env('getDescription', `<callContext/><publicName>TRACE</publicName>`)],
  ['callContext nil', env('getDescription', `<callContext xsi:nil="true"/><publicName>TRACE</publicName>`)],
  ['callContext password twice', env('getDescription', `<callContext><password>${KEY}</password><password>${KEY}</password></callContext><publicName>TRACE</publicName>`)],
  ['callContext password structure', env('getDescription', `<callContext><password><a>${KEY}</a></password></callContext><publicName>TRACE</publicName>`)],
  ['callContext password spaced', env('getDescription', `<callContext><password>  ${KEY}\n</password></callContext><publicName>TRACE</publicName>`)],
  ['callContext password runs', env('getDescription', `<callContext><password>${KEY.slice(0, 4)}<!--x-->${KEY.slice(4)}</password></callContext><publicName>TRACE</publicName>`)],
  ['callContext password CDATA', env('getDescription', `<callContext><password><![CDATA[${KEY}]]></password></callContext><publicName>TRACE</publicName>`)],
  ['callContext codeUser structure', env('getDescription', `<callContext><codeUser><a/></codeUser><password>${KEY}</password></callContext><publicName>TRACE</publicName>`)],
  ['callContext requestConfig CDATA', env('read', `<callContext><password>${KEY}</password><requestConfig><![CDATA[adxwss.optreturn=JSON&adxwss.beautify=true]]></requestConfig></callContext><publicName>TRACE</publicName><objectKeys><i><key>id</key><value>g-php</value></i></objectKeys>`)],
  ['callContext requestConfig literal CDATA', env('read', `<callContext><password>${KEY}</password><requestConfig>&lt;![CDATA[adxwss.optreturn=JSON]]&gt;</requestConfig></callContext><publicName>TRACE</publicName><objectKeys><i><key>id</key><value>g-php</value></i></objectKeys>`)],
  ['callContext href to later id', env('getDescription', `<callContext href="#c"/><publicName>TRACE</publicName>`).replace('</soapenv:Body>', `<c id="c"><password>${KEY}</password></c></soapenv:Body>`)],
  ['callContext href and own members', env('getDescription', `<callContext href="#c"><codeUser>own</codeUser></callContext><publicName>TRACE</publicName>`).replace('</soapenv:Body>', `<c id="c"><password>${KEY}</password></c></soapenv:Body>`)],
  ['callContext href missing', env('getDescription', `<callContext href="#none"/><publicName>TRACE</publicName>`)],
  ['callContext href duplicate id', env('getDescription', `<callContext href="#c"/><publicName>TRACE</publicName>`).replace('</soapenv:Body>', `<c id="c"><password>wrong</password></c><c id="c"><password>${KEY}</password></c></soapenv:Body>`)],
  ['callContext typed', env('getDescription', `<callContext xsi:type="wss:CSvcCallContext"><password xsi:type="xsd:string">${KEY}</password></callContext><publicName>TRACE</publicName>`)],
  ['callContext unknown member', env('getDescription', `<callContext><password>${KEY}</password><extra>1</extra></callContext><publicName>TRACE</publicName>`)],
  ['Authorization Basic', env('getDescription', `<callContext><codeUser>x</codeUser></callContext><publicName>TRACE</publicName>`)],
  // objectKeys shapes
  ['objectKeys text', withCtx('read', '<publicName>TRACE</publicName><objectKeys>id</objectKeys>')],
  ['objectKeys spaces', withCtx('read', '<publicName>TRACE</publicName><objectKeys>  </objectKeys>')],
  ['objectKeys nil member', withCtx('read', '<publicName>TRACE</publicName><objectKeys><item xsi:nil="true"/><item><key>id</key><value>g-php</value></item></objectKeys>')],
  ['objectKeys member text', withCtx('read', '<publicName>TRACE</publicName><objectKeys><item>id</item></objectKeys>')],
  ['objectKeys mixed names', withCtx('read', '<publicName>TRACE</publicName><objectKeys><a><key>x</key><value>1</value></a><b><key>id</key><value>g-php</value></b><a><key>id</key><value>g-axis</value></a></objectKeys>')],
  ['objectKeys empty member', withCtx('read', '<publicName>TRACE</publicName><objectKeys><item/><item><key/><value/></item></objectKeys>')],
  ['objectKeys key spaces', withCtx('read', '<publicName>TRACE</publicName><objectKeys><item><key> id </key><value> g-php </value></item></objectKeys>')],
  ['objectKeys key structure', withCtx('read', '<publicName>TRACE</publicName><objectKeys><item><key><x/></key><value>g-php</value></item></objectKeys>')],
  ['objectKeys twice', withCtx('read', '<publicName>TRACE</publicName><objectKeys><item><key>id</key><value>g-php</value></item></objectKeys><objectKeys/>')],
  ['objectKeys typed nil', withCtx('read', '<publicName>TRACE</publicName><objectKeys xsi:type="soapenc:Array" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xsi:nil="true"/>')],
  ['objectKeys absent', withCtx('read', '<publicName>TRACE</publicName>')],
  ['objectKeys value nil', withCtx('query', '<publicName>TRACE</publicName><objectKeys><item><key>status</key><value xsi:nil="true"/></item></objectKeys><listSize>1</listSize>')],
  ['objectKeys value int typed', withCtx('query', '<publicName>TRACE</publicName><objectKeys><item><key>search</key><value xsi:type="xsd:int">007</value></item></objectKeys><listSize>1</listSize>')],
  ['objectKeys href members', withCtx('read', '<publicName>TRACE</publicName><objectKeys><item href="#k1"/></objectKeys>').replace('</soapenv:Body>', '<m id="k1"><key>id</key><value>g-dotnet</value></m></soapenv:Body>')],
  ['objectKeys nested href', withCtx('read', '<publicName>TRACE</publicName><objectKeys href="#arr"/>').replace('</soapenv:Body>', '<a id="arr"><item href="#k1"/></a><m id="k1"><key>id</key><value>g-dotnet</value></m></soapenv:Body>')],
  // listSize shapes
  ...['', '<listSize> 3 </listSize>', '<listSize>3</listSize>', '<listSize xsi:type="xsd:int">3</listSize>', '<listSize>three</listSize>', '<listSize>1.5</listSize>',
    '<listSize>99999999999</listSize>', '<listSize xsi:nil="true"/>', '<listSize/>', '<listSize></listSize>', '<listSize>12abc</listSize>', '<listSize>+5</listSize>',
    '<listSize>0x10</listSize>', '<listSize>1e3</listSize>', '<listSize>-0</listSize>', '<listSize>-1</listSize>', '<listSize>2147483648</listSize>', '<listSize>1<!--c-->2</listSize>',
    '<listSize xsi:type="xsd:int">1<!--c-->2</listSize>', '<listSize><![CDATA[4]]></listSize>', '<listSize><a>1</a></listSize>', '<listSize>2</listSize><listSize>3</listSize>',
    '<listSize xsi:type="xsd:string">12abc</listSize>', '<listSize xsi:type="wss:CSvcCallContext">7</listSize>', '<listSize href="#n"/>', '<listSize>١٢</listSize>',
  ].map((l): [string, string] => [`listSize ${l || 'absent'}`, query(l).replace('</soapenv:Body>', '<n id="n" xsi:type="xsd:int">12abc</n></soapenv:Body>')]),
  ['listSize SPAN filters', query('<listSize>2</listSize>', 'SPAN', '<objectKeys><item><key>traceId</key><value>g-php</value></item><item><key>status</key><value>COMPLETED</value></item><item><key>parentSpanId</key><value></value></item></objectKeys>')],
  // inputXml shapes
  ['inputXml nil', withCtx('run', '<publicName>HEALTH</publicName><inputXml xsi:nil="true"/>')],
  ['inputXml absent', withCtx('run', '<publicName>TRACE_STATS</publicName>')],
  ['inputXml broken', withCtx('run', '<publicName>TRACE_STATS</publicName><inputXml>&lt;PARAM&gt;</inputXml>')],
  ['inputXml CDATA', withCtx('run', '<publicName>TRACE_STATS</publicName><inputXml><![CDATA[<PARAM><FLD NAME="sessionId">sess-php</FLD></PARAM>]]></inputXml>')],
  ['inputXml LST', withCtx('run', '<publicName>TRACE_STATS</publicName><inputXml>&lt;PARAM&gt;&lt;LST NAME="sessionId"&gt;&lt;ITM&gt;a&lt;/ITM&gt;&lt;/LST&gt;&lt;/PARAM&gt;</inputXml>')],
  ['inputXml structure', withCtx('run', '<publicName>TRACE_STATS</publicName><inputXml><PARAM/></inputXml>')],
  // envelope faults
  ['malformed', '<soapenv:Envelope'],
  ['empty body', ''],
  ['not xml', 'hello'],
  ['not an envelope', '<root/>'],
  ['SOAP 1.2', `<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body/></e:Envelope>`],
  ['other namespace', `<e:Envelope xmlns:e="urn:x"><e:Body/></e:Envelope>`],
  ['no Body', `<soapenv:Envelope ${NS}><soapenv:Header/></soapenv:Envelope>`],
  ['empty Body', `<soapenv:Envelope ${NS}><soapenv:Body/></soapenv:Envelope>`],
  ['unknown operation', env('delete', CTX)],
  ['operation Response name', env('readResponse', CTX)],
  ['operation in other namespace', `<soapenv:Envelope ${NS}><soapenv:Body><x:read xmlns:x="urn:other">${CTX}<publicName>TRACE</publicName><objectKeys><i><key>id</key><value>g-php</value></i></objectKeys></x:read></soapenv:Body></soapenv:Envelope>`],
  ['operation unqualified', `<soapenv:Envelope ${NS}><soapenv:Body><getDescription>${CTX}<publicName>TRACE</publicName></getDescription></soapenv:Body></soapenv:Envelope>`],
  ['mustUnderstand', env('getDescription', `${CTX}<publicName>TRACE</publicName>`, '<soapenv:Header><h:x xmlns:h="urn:h" soapenv:mustUnderstand="1"/></soapenv:Header>')],
  ['mustUnderstand other actor', env('getDescription', `${CTX}<publicName>TRACE</publicName>`, '<soapenv:Header><h:x xmlns:h="urn:h" soapenv:mustUnderstand="1" soapenv:actor="urn:other"/></soapenv:Header>')],
  ['header ignored', env('getDescription', `${CTX}<publicName>TRACE</publicName>`, '<soapenv:Header><h:x xmlns:h="urn:h">1</h:x></soapenv:Header>')],
  ['root 0 first', `<soapenv:Envelope ${NS}><soapenv:Body><m soapenc:root="0" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">1</m><wss:getDescription>${CTX}<publicName>TRACE</publicName></wss:getDescription></soapenv:Body></soapenv:Envelope>`],
  ['two operations', `<soapenv:Envelope ${NS}><soapenv:Body><wss:getDescription>${CTX}<publicName>TRACE</publicName></wss:getDescription><wss:getDescription>${CTX}<publicName>SPAN</publicName></wss:getDescription></soapenv:Body></soapenv:Envelope>`],
  ['text in Body', `<soapenv:Envelope ${NS}><soapenv:Body>x<wss:getDescription>${CTX}<publicName>TRACE</publicName></wss:getDescription></soapenv:Body></soapenv:Envelope>`],
  ['too many elements', env('getDescription', `${CTX}<publicName>TRACE</publicName>${'<x/>'.repeat(1001)}`)],
  ['too deep', env('getDescription', `${CTX}<publicName>TRACE</publicName>${'<x>'.repeat(70)}${'</x>'.repeat(70)}`)],
  ['too many namespaces', env('getDescription', `${CTX}<publicName>TRACE</publicName>${Array.from({ length: 40 }, (_, i) => `<x xmlns:n${i}="urn:${i}" xmlns:m${i}="urn:m${i}" xmlns:o${i}="urn:o${i}" xmlns:p${i}="urn:p${i}"/>`).join('')}`)],
  ['DOCTYPE', `<!DOCTYPE x [<!ENTITY a "b">]>${env('getDescription', `${CTX}<publicName>TRACE</publicName>`)}`],
  ['unknown entity', env('getDescription', `${CTX}<publicName>&nope;</publicName>`)],
  ['char ref zero', env('getDescription', `${CTX}<publicName>&#0;</publicName>`)],
  ['surrogate refs', env('getDescription', `${CTX}<publicName>&#xD83D;&#xDE00;</publicName>`)],
  ['lone surrogate ref', env('getDescription', `${CTX}<publicName>&#xD83D;</publicName>`)],
  ['BOM', `\uFEFF${env('getDescription', `${CTX}<publicName>TRACE</publicName>`)}`],
  ['xml declaration', `<?xml version="1.0" encoding="utf-8"?>\n${env('getDescription', `${CTX}<publicName>TRACE</publicName>`)}`],
  ['processing instruction', env('getDescription', `${CTX}<publicName>TR<?pi x?>ACE</publicName>`)],
  ['trailing text', `${env('getDescription', `${CTX}<publicName>TRACE</publicName>`)}x`],
  ['unbound prefix', env('getDescription', `${CTX}<publicName>TRACE</publicName><q:x/>`)],
  ['attribute without space', env('getDescription', `${CTX}<publicName a="1"b="2">TRACE</publicName>`)],
  ['single-quoted attributes', env('getDescription', `${CTX}<publicName xsi:type='xsd:string'>TRACE</publicName>`)],
  ['extra part', withCtx('getDescription', '<publicName>TRACE</publicName><objectKeys><i><key>a</key><value>b</value></i></objectKeys><x>1</x>')],
  ['parts out of order', env('getDescription', `<publicName>TRACE</publicName>${CTX}`)],
];

