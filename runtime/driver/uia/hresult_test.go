package uia

import "testing"

func TestHresultText(t *testing.T) {
	tests := map[uint32]string{
		0x80040201: "UIA_E_ELEMENTNOTAVAILABLE: the element is gone (0x80040201)",
		0x80040154: "REGDB_E_CLASSNOTREG: the COM class is not registered (0x80040154)",
		0x8007000E: "HRESULT 0x8007000E",
	}
	for code, want := range tests {
		if got := hresultText(code); got != want {
			t.Errorf("hresultText(%#x) = %q, want %q", code, got, want)
		}
	}
}
