// A minimal schema for the SOAP 1.1 encoding namespace, served at ?xsd=soapenc and
// imported by the WSDL with that schemaLocation. Toolkits that resolve the namespace
// over the network (zeep auto-imports it from schemas.xmlsoap.org) then never leave
// this server, so the WSDL loads behind a firewall or offline. Only what the WSDL
// refers to is declared: the Array type and the arrayType attribute. Nothing in it
// refers to its own namespace: zeep would try to auto-import that namespace again.
import { SOAP_ENC_NS, XSD_NS } from './namespaces';

const anyContent =
  `<xs:sequence><xs:any namespace="##any" minOccurs="0" maxOccurs="unbounded" processContents="lax"/></xs:sequence>` +
  `<xs:anyAttribute namespace="##any" processContents="lax"/>`;

export const SOAPENC_XSD =
  `<?xml version="1.0" encoding="UTF-8"?>\n` +
  `<xs:schema xmlns:xs="${XSD_NS}" targetNamespace="${SOAP_ENC_NS}">` +
  `<xs:attribute name="root" type="xs:boolean"/>` +
  `<xs:attribute name="arrayType" type="xs:string"/>` +
  `<xs:attribute name="offset" type="xs:string"/>` +
  `<xs:attribute name="position" type="xs:string"/>` +
  `<xs:complexType name="Array">${anyContent}</xs:complexType>` +
  `<xs:complexType name="Struct">${anyContent}</xs:complexType>` +
  `</xs:schema>\n`;
