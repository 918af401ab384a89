// docs/product.md §1.3: the Resources page's state refund selector: all 50 states, each with its
// official refund-status page. Nine states have no personal income tax on wages (AK, FL, NV, NH,
// SD, TN, TX, WA, WY) and therefore no refund to track: their refundUrl is null and choosing them
// opens nothing. The links are not printed on the page; choosing a state opens it in a new
// tab.

export interface StateRefundLink {
  code: string;
  name: string;
  refundUrl: string | null;
}

// One state a line: its code, its name and its refund-status page ('-' for none).
const STATES = `
AL  Alabama         https://myalabamataxes.alabama.gov/_/#1
AK  Alaska          -
AZ  Arizona         https://aztaxes.gov/Home/CheckRefund
AR  Arkansas        https://atap.arkansas.gov/_/#2
CA  California      https://www.ftb.ca.gov/refund/index.asp
CO  Colorado        https://www.colorado.gov/revenueonline/_/#2
CT  Connecticut     https://drs.ct.gov/eservices/_/#1
DE  Delaware        https://tax.delaware.gov/refund-status/
FL  Florida         -
GA  Georgia         https://gtc.dor.ga.gov/_/#1
HI  Hawaii          https://hitax.hawaii.gov/_/#1
ID  Idaho           https://tax.idaho.gov/taxes/income-tax/individual-income/refund/
IL  Illinois        https://mytax.illinois.gov/_/#3
IN  Indiana         https://intime.dor.in.gov/eServices/_/#1
IA  Iowa            https://govconnect.iowa.gov/tap/_/#2
KS  Kansas          https://www.kdor.ks.gov/Apps/KCSC/Login.aspx
KY  Kentucky        https://refund.ky.gov/
LA  Louisiana       https://latap.revenue.louisiana.gov/_/#2
ME  Maine           https://portal.maine.gov/refundstatus/
MD  Maryland        https://interactive.marylandtaxes.gov/Individuals/refund/
MA  Massachusetts   https://mtc.dor.state.ma.us/mtc/_/#2
MI  Michigan        https://www.michigan.gov/taxes/iit/refund
MN  Minnesota       https://www.revenue.state.mn.us/wheres-my-refund
MS  Mississippi     https://tap.dor.ms.gov/_/#2
MO  Missouri        https://mytax.mo.gov/rptp/portal/home/individual-refund-inquiry
MT  Montana         https://tap.dor.mt.gov/_/#2
NE  Nebraska        https://ndr-refundstatus.ne.gov/refundstatus/public/search.faces
NV  Nevada          -
NH  New Hampshire   -
NJ  New Jersey      https://www16.state.nj.us/TYTR_TGI_INQ/jsp/prototype/prototype.jsp
NM  New Mexico      https://tap.state.nm.us/Tap/_/#2
NY  New York        https://www.tax.ny.gov/pit/file/refund.htm
NC  North Carolina  https://eservices.dor.nc.gov/wheresmyrefund/SelectionServlet
ND  North Dakota    https://www.tax.nd.gov/individual/wheres-my-refund
OH  Ohio            https://tax.ohio.gov/individual/refund-status
OK  Oklahoma        https://oktap.tax.ok.gov/oktap/web/_/#2
OR  Oregon          https://revenueonline.dor.oregon.gov/tap/_/#2
PA  Pennsylvania    https://mypath.pa.gov/_/#2
RI  Rhode Island    https://taxportal.ri.gov/rptp/portal/home/refund-status
SC  South Carolina  https://mydorway.dor.sc.gov/_/#2
SD  South Dakota    -
TN  Tennessee       -
TX  Texas           -
UT  Utah            https://tap.tax.utah.gov/TaxExpress/_/#2
VT  Vermont         https://myvtax.vermont.gov/_/#2
VA  Virginia        https://www.tax.virginia.gov/wheres-my-refund
WA  Washington      -
WV  West Virginia   https://mytaxes.wvtax.gov/_/#2
WI  Wisconsin       https://www.revenue.wi.gov/Pages/Apps/TaxReturnStatus.aspx
WY  Wyoming         -
`;

export const stateRefundLinks: readonly StateRefundLink[] = STATES.trim()
  .split('\n')
  .map((line) => {
    const [, code, name, url] = /^(\w\w) +(.+?) +(\S+)$/.exec(line)!;
    return { code, name, refundUrl: url === '-' ? null : url };
  });

/** The nine states without a refund-status link (docs/product.md §1.3). */
export const statesWithoutRefundLink = stateRefundLinks.filter((s) => s.refundUrl === null).map((s) => s.code);
