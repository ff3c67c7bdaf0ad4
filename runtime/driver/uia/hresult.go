package uia

import "fmt"

// hresultNames name the HRESULTs UI Automation clients meet, so errors
// say "UIA_E_ELEMENTNOTAVAILABLE: the element is gone" rather than a
// number (FormatMessage knows none of UIA's own codes).
var hresultNames = map[uint32]string{
	0x80004001: "E_NOTIMPL: not implemented",
	0x80004002: "E_NOINTERFACE: the object does not have this interface",
	0x80004003: "E_POINTER: a null pointer",
	0x80004005: "E_FAIL: unspecified failure",
	0x8000FFFF: "E_UNEXPECTED: unexpected failure",
	0x80040154: "REGDB_E_CLASSNOTREG: the COM class is not registered",
	0x800401F0: "CO_E_NOTINITIALIZED: COM is not initialised on this thread",
	0x80070005: "E_ACCESSDENIED: access denied (an elevated window?)",
	0x80070057: "E_INVALIDARG: an invalid argument",
	0x80040200: "UIA_E_ELEMENTNOTENABLED: the element is not enabled",
	0x80040201: "UIA_E_ELEMENTNOTAVAILABLE: the element is gone",
	0x80040202: "UIA_E_NOCLICKABLEPOINT: the element has no clickable point",
	0x80040203: "UIA_E_PROXYASSEMBLYNOTLOADED: a proxy could not be loaded",
	0x80131509: "UIA_E_INVALIDOPERATION: the control does not allow this now",
	0x80131505: "UIA_E_TIMEOUT: the application did not answer in time",
	0x80010108: "RPC_E_DISCONNECTED: the application went away",
	0x800706BA: "RPC_S_SERVER_UNAVAILABLE: the application went away",
}

// hresultText describes an HRESULT: its name and meaning when known, and
// always its hex code.
func hresultText(code uint32) string {
	if name, ok := hresultNames[code]; ok {
		return fmt.Sprintf("%s (0x%08X)", name, code)
	}
	return fmt.Sprintf("HRESULT 0x%08X", code)
}
