// Apache Axis 1.4 (Debian libaxis-java) against the Crossroads SOAP service, through
// stubs that WSDL2Java generated from the live WSDL. Axis sends every struct, array
// member and int as a multiRef. Prints one JSON object with each call's result or fault.
// Usage (see run.sh): java AxisClient <baseURL> <apiKey> <idPrefix>
import java.net.URL;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.axis.AxisFault;
import wss.crossroads.*;

public class AxisClient {
  static String json(String s) {
    if (s == null) return "null";
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"': b.append("\\\""); break;
        case '\\': b.append("\\\\"); break;
        case '\n': b.append("\\n"); break;
        case '\r': b.append("\\r"); break;
        case '\t': b.append("\\t"); break;
        default:
          if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
          else b.append(c);
      }
    }
    return b.append('"').toString();
  }

  static String list(Object[] items) {
    StringBuilder b = new StringBuilder("[");
    if (items != null) {
      for (int i = 0; i < items.length; i++) {
        String type, message;
        if (items[i] instanceof CSvcMessage) { type = ((CSvcMessage) items[i]).getType(); message = ((CSvcMessage) items[i]).getMessage(); }
        else { type = ((CSvcTechnicalInfos) items[i]).getType(); message = ((CSvcTechnicalInfos) items[i]).getMessage(); }
        b.append(i == 0 ? "" : ",").append("{\"type\":").append(json(type)).append(",\"message\":").append(json(message)).append('}');
      }
    }
    return b.append(']').toString();
  }

  static String attempt(Callable<CSvcResultXml> call) {
    try {
      CSvcResultXml r = call.call();
      return "{\"status\":" + r.getStatus() + ",\"resultXml\":" + json(r.getResultXml() == null ? "" : r.getResultXml())
          + ",\"messages\":" + list(r.getMessages()) + ",\"technicalInfos\":" + list(r.getTechnicalInfos()) + "}";
    } catch (AxisFault f) {
      return "{\"fault\":{\"faultcode\":" + json(f.getFaultCode().toString()) + ",\"faultstring\":" + json(f.getFaultString()) + "}}";
    } catch (Exception e) {
      return "{\"error\":" + json(e.toString()) + "}";
    }
  }

  static CSvcCallContext ctx(String password, String config) {
    return new CSvcCallContext("ENG", "axis-e2e", password, "", "", config);
  }

  static CSvcParamKeyValue[] keys(String... kv) {
    CSvcParamKeyValue[] out = new CSvcParamKeyValue[kv.length / 2];
    for (int i = 0; i < out.length; i++) out[i] = new CSvcParamKeyValue(kv[2 * i], kv[2 * i + 1]);
    return out;
  }

  static String xmlEscape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  public static void main(String[] args) throws Exception {
    String base = args[0], key = args[1], prefix = args[2];
    CSvcWebServiceXmlCC port = new CSvcWebServiceXmlCCServiceLocator().getCSvcWebServiceXmlCC(new URL(base + "/api/soap"));
    CSvcCallContext good = ctx(key, "");
    String nasty = "Tom & Jerry <say> \"hi\" ]]> \uD83D\uDE00 \u4E2D\u6587";
    String xmlId = prefix + "-xml", jsonId = prefix + "-json", session = prefix + "-session";
    String param = "<PARAM><GRP ID=\"TRACE\"><FLD NAME=\"id\" TYPE=\"Char\">" + xmlEscape(xmlId) + "</FLD>"
        + "<FLD NAME=\"name\" TYPE=\"Char\">" + xmlEscape(nasty) + "</FLD>"
        + "<FLD NAME=\"sessionId\" TYPE=\"Char\">" + session + "</FLD>"
        + "<FLD NAME=\"status\" TYPE=\"Char\">ERROR</FLD>"
        + "<FLD NAME=\"startedAt\" TYPE=\"DateTime\">2026-01-02T03:04:05.000Z</FLD>"
        + "<FLD NAME=\"totalCost\" TYPE=\"Decimal\">0.25</FLD>"
        + "<FLD NAME=\"metadata\" TYPE=\"Json\">{\"k\":\"v &amp; w\"}</FLD>"
        + "<LST NAME=\"tags\" SIZE=\"2\" TYPE=\"Char\"><ITM>a</ITM><ITM>b</ITM></LST>"
        + "</GRP><TAB ID=\"SPANS\" SIZE=\"1\"><LIN NUM=\"1\"><FLD NAME=\"id\">s1</FLD><FLD NAME=\"name\">root</FLD>"
        + "<FLD NAME=\"type\">AGENT</FLD><FLD NAME=\"status\">ERROR</FLD><FLD NAME=\"startedAt\">2026-01-02T03:04:05.000Z</FLD></LIN></TAB></PARAM>";
    String traceJson = "{\"id\":" + json(jsonId) + ",\"name\":\"json trace\",\"sessionId\":" + json(session)
        + ",\"status\":\"COMPLETED\",\"tags\":[\"x\"],\"startedAt\":\"2026-01-03T00:00:00.000Z\",\"totalCost\":0.5,"
        + "\"totalTokens\":10,\"totalDuration\":100,\"decisionPoints\":[],\"events\":[],"
        + "\"spans\":[{\"id\":\"s1\",\"name\":\"llm\",\"type\":\"LLM_CALL\",\"status\":\"COMPLETED\",\"startedAt\":\"2026-01-03T00:00:01.000Z\"}]}";

    Map<String, String> out = new LinkedHashMap<>();
    out.put("client", json("axis-1.4"));
    out.put("functions", "[\"getDescription\",\"read\",\"query\",\"save\",\"run\"]");
    out.put("nasty", json(nasty));
    out.put("describeAll", attempt(() -> port.getDescription(good, "")));
    out.put("describeTrace", attempt(() -> port.getDescription(good, "TRACE")));
    out.put("saveXml", attempt(() -> port.save(ctx(key, "adxwss.trace.on=on"), "TRACE", param)));
    out.put("saveJson", attempt(() -> port.save(good, "TRACE", traceJson)));
    out.put("saveDuplicate", attempt(() -> port.save(good, "TRACE", traceJson)));
    out.put("readXml", attempt(() -> port.read(good, "TRACE", keys("id", xmlId))));
    out.put("readJson", attempt(() -> port.read(ctx(key, "adxwss.optreturn=JSON"), "TRACE", keys("id", xmlId))));
    out.put("query", attempt(() -> port.query(good, "TRACE", keys("sessionId", session), 10)));
    out.put("queryFiltered", attempt(() -> port.query(good, "TRACE", keys("sessionId", session, "status", "ERROR"), 10)));
    out.put("queryLimited", attempt(() -> port.query(good, "TRACE", keys("sessionId", session), 1)));
    out.put("queryListSizeZero", attempt(() -> port.query(good, "TRACE", keys(), 0)));
    out.put("querySpans", attempt(() -> port.query(good, "SPAN", keys("traceId", jsonId), 5)));
    out.put("readSpan", attempt(() -> port.read(good, "SPAN", keys("traceId", xmlId, "id", "s1"))));
    out.put("runHealth", attempt(() -> port.run(good, "HEALTH", null)));
    out.put("runStats", attempt(() -> port.run(good, "TRACE_STATS", "<PARAM><FLD NAME=\"sessionId\">" + session + "</FLD></PARAM>")));
    out.put("badCredentials", attempt(() -> port.read(ctx("wrong-key", ""), "TRACE", keys("id", xmlId))));
    out.put("unknownPublicName", attempt(() -> port.read(good, "INVOICE", keys("id", "1"))));

    StringBuilder b = new StringBuilder("{");
    for (Map.Entry<String, String> e : out.entrySet()) b.append(b.length() > 1 ? "," : "").append(json(e.getKey())).append(':').append(e.getValue());
    System.out.println(b.append('}'));
  }
}
