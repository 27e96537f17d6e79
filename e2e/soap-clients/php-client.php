<?php
// PHP SoapClient (ext-soap) against the Crossroads SOAP service: loads the WSDL, calls
// every operation and prints one JSON object with each call's result (or fault).
// Usage: php php-client.php <baseURL> <apiKey> <idPrefix>
[$_, $base, $key, $prefix] = $argv;
ini_set('default_socket_timeout', '30');

function client(string $base, string $class = 'SoapClient'): SoapClient {
    return new $class("$base/api/soap?wsdl", ['cache_wsdl' => WSDL_CACHE_NONE, 'exceptions' => true, 'trace' => true]);
}
function ctx(string $password, string $config = ''): array {
    return ['codeLang' => 'ENG', 'codeUser' => 'php-e2e', 'password' => $password, 'poolAlias' => 'ignored', 'poolId' => '', 'requestConfig' => $config];
}
function kv(array $pairs): array {
    $out = [];
    foreach ($pairs as $k => $v) $out[] = ['key' => $k, 'value' => $v];
    return $out;
}
function result($r): array {
    $list = fn($items) => array_map(fn($m) => ['type' => $m->type, 'message' => $m->message], is_array($items) ? $items : ($items === null ? [] : [$items]));
    return ['status' => $r->status, 'resultXml' => $r->resultXml, 'messages' => $list($r->messages), 'technicalInfos' => $list($r->technicalInfos)];
}
function attempt(callable $call): array {
    try {
        return result($call());
    } catch (SoapFault $f) {
        return ['fault' => ['faultcode' => $f->faultcode, 'faultstring' => $f->faultstring]];
    }
}

// Rewrites the operation element on the wire, to see how SoapClient reports our faults.
class RenamingClient extends SoapClient {
    public function __doRequest($request, $location, $action, $version, $oneWay = false): ?string {
        return parent::__doRequest(str_replace(['ns1:getDescription>', 'ns1:getDescription '], ['ns1:dropTable>', 'ns1:dropTable '], $request), $location, $action, $version, $oneWay);
    }
}

$c = client($base);
$good = ctx($key);
$nasty = "Tom & Jerry <say> \"hi\" ]]> 😀 中文";
$xmlId = "$prefix-xml";
$jsonId = "$prefix-json";
$session = "$prefix-session";
$param = '<PARAM><GRP ID="TRACE">'
    . '<FLD NAME="id" TYPE="Char">' . htmlspecialchars($xmlId, ENT_XML1) . '</FLD>'
    . '<FLD NAME="name" TYPE="Char">' . htmlspecialchars($nasty, ENT_XML1) . '</FLD>'
    . '<FLD NAME="sessionId" TYPE="Char">' . $session . '</FLD>'
    . '<FLD NAME="status" TYPE="Char">ERROR</FLD>'
    . '<FLD NAME="startedAt" TYPE="DateTime">2026-01-02T03:04:05.000Z</FLD>'
    . '<FLD NAME="totalCost" TYPE="Decimal">0.25</FLD>'
    . '<FLD NAME="metadata" TYPE="Json">{"k":"v &amp; w"}</FLD>'
    . '<LST NAME="tags" SIZE="2" TYPE="Char"><ITM>a</ITM><ITM>b</ITM></LST>'
    . '</GRP><TAB ID="SPANS" SIZE="1"><LIN NUM="1"><FLD NAME="id">s1</FLD><FLD NAME="name">root</FLD>'
    . '<FLD NAME="type">AGENT</FLD><FLD NAME="status">ERROR</FLD><FLD NAME="startedAt">2026-01-02T03:04:05.000Z</FLD></LIN></TAB>'
    . '</PARAM>';
$json = json_encode([
    'id' => $jsonId, 'name' => 'json trace', 'sessionId' => $session, 'status' => 'COMPLETED', 'tags' => ['x'],
    'startedAt' => '2026-01-03T00:00:00.000Z', 'totalCost' => 0.5, 'totalTokens' => 10, 'totalDuration' => 100,
    'decisionPoints' => [], 'events' => [],
    'spans' => [['id' => 's1', 'name' => 'llm', 'type' => 'LLM_CALL', 'status' => 'COMPLETED', 'startedAt' => '2026-01-03T00:00:01.000Z']],
]);

$out = ['client' => 'php-soapclient', 'functions' => $c->__getFunctions(), 'nasty' => $nasty];
$out['describeAll'] = attempt(fn() => $c->getDescription($good, ''));
$out['describeTrace'] = attempt(fn() => $c->getDescription($good, 'TRACE'));
$out['saveXml'] = attempt(fn() => $c->save(ctx($key, 'adxwss.trace.on=on'), 'TRACE', $param));
$out['saveJson'] = attempt(fn() => $c->save($good, 'TRACE', $json));
$out['saveDuplicate'] = attempt(fn() => $c->save($good, 'TRACE', $json));
$out['readXml'] = attempt(fn() => $c->read($good, 'TRACE', kv(['id' => $xmlId])));
$out['readJson'] = attempt(fn() => $c->read(ctx($key, 'adxwss.optreturn=JSON'), 'TRACE', kv(['id' => $xmlId])));
$out['query'] = attempt(fn() => $c->query($good, 'TRACE', kv(['sessionId' => $session]), 10));
$out['queryFiltered'] = attempt(fn() => $c->query($good, 'TRACE', kv(['sessionId' => $session, 'status' => 'ERROR']), 10));
$out['queryLimited'] = attempt(fn() => $c->query($good, 'TRACE', kv(['sessionId' => $session]), 1));
$out['queryListSizeZero'] = attempt(fn() => $c->query($good, 'TRACE', [], 0));
$out['querySpans'] = attempt(fn() => $c->query($good, 'SPAN', kv(['traceId' => $jsonId]), 5));
$out['readSpan'] = attempt(fn() => $c->read($good, 'SPAN', kv(['traceId' => $xmlId, 'id' => 's1'])));
$out['runHealth'] = attempt(fn() => $c->run($good, 'HEALTH', ''));
$out['runStats'] = attempt(fn() => $c->run($good, 'TRACE_STATS', "<PARAM><FLD NAME=\"sessionId\">$session</FLD></PARAM>"));
$out['badCredentials'] = attempt(fn() => $c->read(ctx('wrong-key'), 'TRACE', kv(['id' => $xmlId])));
$out['unknownPublicName'] = attempt(fn() => $c->read($good, 'INVOICE', kv(['id' => '1'])));
$out['unknownOperationFault'] = attempt(fn() => client($base, 'RenamingClient')->getDescription($good, ''));
echo json_encode($out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
