package browser

import (
	"context"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// SetOffline emulates losing the connection (true) or getting it back
// (false), as the browser's network emulation does: every request fails
// while offline, and navigator.onLine and the online/offline events follow.
func (p *Page) SetOffline(offline bool) {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		conds := []*network.Conditions{{Offline: offline, DownloadThroughput: -1, UploadThroughput: -1}}
		if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule,
			network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: conds}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, network.OverrideNetworkState,
			network.OverrideNetworkStateParams{Offline: offline, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	}))
	if err != nil {
		p.t.Fatalf("browser: offline %v: %v", offline, err)
	}
}
