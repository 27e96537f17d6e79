#!/usr/bin/env python3
"""Python SOAP clients (zeep or suds, from Debian's python3-zeep / python3-suds) against
the Crossroads SOAP service: load the WSDL, call every operation, print one JSON object
with each call's result or fault.

Usage: python3 python-client.py <zeep|suds> <baseURL> <apiKey> <idPrefix>
"""
import json
import sys
from xml.sax.saxutils import escape

toolkit, base, key, prefix = sys.argv[1:5]
wsdl = f"{base}/api/soap?wsdl"


def ctx(password, config=""):
    return {"codeLang": "ENG", "codeUser": f"{toolkit}-e2e", "password": password,
            "poolAlias": "", "poolId": "", "requestConfig": config}


if toolkit == "zeep":
    import zeep
    from zeep.exceptions import Fault

    client = zeep.Client(wsdl)
    service = client.service
    ArrayOfKV = client.get_type("ns0:ArrayOfCSvcParamKeyValue")

    def keys(pairs):
        return ArrayOfKV([{"key": k, "value": v} for k, v in pairs.items()])

    def context(password, config=""):
        return ctx(password, config)

    def describe_wsdl():
        return sorted(op for op in client.service._binding._operations)

elif toolkit == "suds":
    from suds import WebFault
    from suds.client import Client

    client = Client(wsdl, cache=None)
    service = client.service
    Fault = WebFault

    def keys(pairs):
        array = client.factory.create("ArrayOfCSvcParamKeyValue")
        items = []
        for k, v in pairs.items():
            kv = client.factory.create("CSvcParamKeyValue")
            kv.key, kv.value = k, v
            items.append(kv)
        array.item = items
        return array

    def context(password, config=""):
        c = client.factory.create("CSvcCallContext")
        for name, value in ctx(password, config).items():
            setattr(c, name, value)
        return c

    def describe_wsdl():
        return sorted(m.name for m in client.wsdl.services[0].ports[0].methods.values())

else:
    raise SystemExit(f"unknown toolkit {toolkit}")


def listify(items):
    if items is None:
        return []
    if not isinstance(items, list):
        items = [items]
    return [{"type": i.type, "message": i.message} for i in items]


def attempt(call):
    try:
        r = call()
    except Fault as f:
        fault = getattr(f, "fault", None)
        code = getattr(f, "code", None) or (fault.faultcode if fault is not None else None)
        text = getattr(f, "message", None) or (fault.faultstring if fault is not None else str(f))
        return {"fault": {"faultcode": str(code), "faultstring": str(text)}}
    return {"status": int(r.status), "resultXml": r.resultXml or "",
            "messages": listify(r.messages), "technicalInfos": listify(r.technicalInfos)}


nasty = "Tom & Jerry <say> \"hi\" ]]> 😀 中文"
xml_id, json_id, session = f"{prefix}-xml", f"{prefix}-json", f"{prefix}-session"


def text(value):
    # suds never escapes an '&' that already starts an entity (&amp;, &lt;), so text that
    # holds entities reaches the server decoded once too often. CDATA avoids entities.
    if toolkit == "suds":
        return "<![CDATA[" + value.replace("]]>", "]]]]><![CDATA[>") + "]]>"
    return escape(value)


param = (
    '<PARAM><GRP ID="TRACE">'
    f'<FLD NAME="id" TYPE="Char">{escape(xml_id)}</FLD>'
    f'<FLD NAME="name" TYPE="Char">{text(nasty)}</FLD>'
    f'<FLD NAME="sessionId" TYPE="Char">{session}</FLD>'
    '<FLD NAME="status" TYPE="Char">ERROR</FLD>'
    '<FLD NAME="startedAt" TYPE="DateTime">2026-01-02T03:04:05.000Z</FLD>'
    '<FLD NAME="totalCost" TYPE="Decimal">0.25</FLD>'
    f'<FLD NAME="metadata" TYPE="Json">{text(json.dumps({"k": "v & w"}))}</FLD>'
    '<LST NAME="tags" SIZE="2" TYPE="Char"><ITM>a</ITM><ITM>b</ITM></LST>'
    '</GRP><TAB ID="SPANS" SIZE="1"><LIN NUM="1"><FLD NAME="id">s1</FLD><FLD NAME="name">root</FLD>'
    '<FLD NAME="type">AGENT</FLD><FLD NAME="status">ERROR</FLD><FLD NAME="startedAt">2026-01-02T03:04:05.000Z</FLD></LIN></TAB>'
    '</PARAM>'
)
trace_json = json.dumps({
    "id": json_id, "name": "json trace", "sessionId": session, "status": "COMPLETED", "tags": ["x"],
    "startedAt": "2026-01-03T00:00:00.000Z", "totalCost": 0.5, "totalTokens": 10, "totalDuration": 100,
    "decisionPoints": [], "events": [],
    "spans": [{"id": "s1", "name": "llm", "type": "LLM_CALL", "status": "COMPLETED", "startedAt": "2026-01-03T00:00:01.000Z"}],
})
good = context(key)

out = {"client": toolkit, "functions": describe_wsdl(), "nasty": nasty}
out["describeAll"] = attempt(lambda: service.getDescription(good, ""))
out["describeTrace"] = attempt(lambda: service.getDescription(good, "TRACE"))
out["saveXml"] = attempt(lambda: service.save(context(key, "adxwss.trace.on=on"), "TRACE", param))
out["saveJson"] = attempt(lambda: service.save(good, "TRACE", trace_json))
out["saveDuplicate"] = attempt(lambda: service.save(good, "TRACE", trace_json))
out["readXml"] = attempt(lambda: service.read(good, "TRACE", keys({"id": xml_id})))
out["readJson"] = attempt(lambda: service.read(context(key, "adxwss.optreturn=JSON"), "TRACE", keys({"id": xml_id})))
out["query"] = attempt(lambda: service.query(good, "TRACE", keys({"sessionId": session}), 10))
out["queryFiltered"] = attempt(lambda: service.query(good, "TRACE", keys({"sessionId": session, "status": "ERROR"}), 10))
out["queryLimited"] = attempt(lambda: service.query(good, "TRACE", keys({"sessionId": session}), 1))
out["queryListSizeZero"] = attempt(lambda: service.query(good, "TRACE", keys({}), 0))
out["querySpans"] = attempt(lambda: service.query(good, "SPAN", keys({"traceId": json_id}), 5))
out["readSpan"] = attempt(lambda: service.read(good, "SPAN", keys({"traceId": xml_id, "id": "s1"})))
out["runHealth"] = attempt(lambda: service.run(good, "HEALTH", ""))
out["runStats"] = attempt(lambda: service.run(good, "TRACE_STATS", f'<PARAM><FLD NAME="sessionId">{session}</FLD></PARAM>'))
out["badCredentials"] = attempt(lambda: service.read(context("wrong-key"), "TRACE", keys({"id": xml_id})))
out["unknownPublicName"] = attempt(lambda: service.read(good, "INVOICE", keys({"id": "1"})))
print(json.dumps(out, ensure_ascii=False))
