package adb

import (
	"reflect"
	"testing"
)

func TestParseDevices(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []DeviceInfo
	}{
		{"empty", "", nil},
		{"short form", "emulator-5554\tdevice\n", []DeviceInfo{{Serial: "emulator-5554", State: "device"}}},
		{"long form",
			"emulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa transport_id:1\n",
			[]DeviceInfo{{Serial: "emulator-5554", State: "device", Product: "sdk_gphone64_x86_64",
				Model: "sdk_gphone64_x86_64", Device: "emu64xa", TransportID: "1"}}},
		{"usb and unauthorized",
			"0123456789ABCDEF       unauthorized usb:1-1 transport_id:2\nR58M       device usb:2-1 product:beyond1 model:SM_G973F device:beyond1 transport_id:3\n",
			[]DeviceInfo{
				{Serial: "0123456789ABCDEF", State: "unauthorized", TransportID: "2"},
				{Serial: "R58M", State: "device", Product: "beyond1", Model: "SM_G973F", Device: "beyond1", TransportID: "3"},
			}},
		{"state with spaces and a colon",
			"0123 no permissions (user in plugdev group; are your udev rules wrong?); see [http://developer.android.com/tools/device.html] usb:1-1 transport_id:4\n",
			[]DeviceInfo{{Serial: "0123",
				State:       "no permissions (user in plugdev group; are your udev rules wrong?); see [http://developer.android.com/tools/device.html]",
				TransportID: "4"}}},
		{"blank lines and a lone word", "\n\nweird\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseDevices(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseDevices(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
			}
		})
	}
}
