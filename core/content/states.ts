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

export const stateRefundLinks: readonly StateRefundLink[] = [
  { code: 'AL', name: 'Alabama', refundUrl: 'https://myalabamataxes.alabama.gov/_/#1' },
  { code: 'AK', name: 'Alaska', refundUrl: null },
  { code: 'AZ', name: 'Arizona', refundUrl: 'https://aztaxes.gov/Home/CheckRefund' },
  { code: 'AR', name: 'Arkansas', refundUrl: 'https://atap.arkansas.gov/_/#2' },
  { code: 'CA', name: 'California', refundUrl: 'https://www.ftb.ca.gov/refund/index.asp' },
  { code: 'CO', name: 'Colorado', refundUrl: 'https://www.colorado.gov/revenueonline/_/#2' },
  { code: 'CT', name: 'Connecticut', refundUrl: 'https://drs.ct.gov/eservices/_/#1' },
  { code: 'DE', name: 'Delaware', refundUrl: 'https://tax.delaware.gov/refund-status/' },
  { code: 'FL', name: 'Florida', refundUrl: null },
  { code: 'GA', name: 'Georgia', refundUrl: 'https://gtc.dor.ga.gov/_/#1' },
  { code: 'HI', name: 'Hawaii', refundUrl: 'https://hitax.hawaii.gov/_/#1' },
  { code: 'ID', name: 'Idaho', refundUrl: 'https://tax.idaho.gov/taxes/income-tax/individual-income/refund/' },
  { code: 'IL', name: 'Illinois', refundUrl: 'https://mytax.illinois.gov/_/#3' },
  { code: 'IN', name: 'Indiana', refundUrl: 'https://intime.dor.in.gov/eServices/_/#1' },
  { code: 'IA', name: 'Iowa', refundUrl: 'https://govconnect.iowa.gov/tap/_/#2' },
  { code: 'KS', name: 'Kansas', refundUrl: 'https://www.kdor.ks.gov/Apps/KCSC/Login.aspx' },
  { code: 'KY', name: 'Kentucky', refundUrl: 'https://refund.ky.gov/' },
  { code: 'LA', name: 'Louisiana', refundUrl: 'https://latap.revenue.louisiana.gov/_/#2' },
  { code: 'ME', name: 'Maine', refundUrl: 'https://portal.maine.gov/refundstatus/' },
  { code: 'MD', name: 'Maryland', refundUrl: 'https://interactive.marylandtaxes.gov/Individuals/refund/' },
  { code: 'MA', name: 'Massachusetts', refundUrl: 'https://mtc.dor.state.ma.us/mtc/_/#2' },
  { code: 'MI', name: 'Michigan', refundUrl: 'https://www.michigan.gov/taxes/iit/refund' },
  { code: 'MN', name: 'Minnesota', refundUrl: 'https://www.revenue.state.mn.us/wheres-my-refund' },
  { code: 'MS', name: 'Mississippi', refundUrl: 'https://tap.dor.ms.gov/_/#2' },
  { code: 'MO', name: 'Missouri', refundUrl: 'https://mytax.mo.gov/rptp/portal/home/individual-refund-inquiry' },
  { code: 'MT', name: 'Montana', refundUrl: 'https://tap.dor.mt.gov/_/#2' },
  { code: 'NE', name: 'Nebraska', refundUrl: 'https://ndr-refundstatus.ne.gov/refundstatus/public/search.faces' },
  { code: 'NV', name: 'Nevada', refundUrl: null },
  { code: 'NH', name: 'New Hampshire', refundUrl: null },
  { code: 'NJ', name: 'New Jersey', refundUrl: 'https://www16.state.nj.us/TYTR_TGI_INQ/jsp/prototype/prototype.jsp' },
  { code: 'NM', name: 'New Mexico', refundUrl: 'https://tap.state.nm.us/Tap/_/#2' },
  { code: 'NY', name: 'New York', refundUrl: 'https://www.tax.ny.gov/pit/file/refund.htm' },
  { code: 'NC', name: 'North Carolina', refundUrl: 'https://eservices.dor.nc.gov/wheresmyrefund/SelectionServlet' },
  { code: 'ND', name: 'North Dakota', refundUrl: 'https://www.tax.nd.gov/individual/wheres-my-refund' },
  { code: 'OH', name: 'Ohio', refundUrl: 'https://tax.ohio.gov/individual/refund-status' },
  { code: 'OK', name: 'Oklahoma', refundUrl: 'https://oktap.tax.ok.gov/oktap/web/_/#2' },
  { code: 'OR', name: 'Oregon', refundUrl: 'https://revenueonline.dor.oregon.gov/tap/_/#2' },
  { code: 'PA', name: 'Pennsylvania', refundUrl: 'https://mypath.pa.gov/_/#2' },
  { code: 'RI', name: 'Rhode Island', refundUrl: 'https://taxportal.ri.gov/rptp/portal/home/refund-status' },
  { code: 'SC', name: 'South Carolina', refundUrl: 'https://mydorway.dor.sc.gov/_/#2' },
  { code: 'SD', name: 'South Dakota', refundUrl: null },
  { code: 'TN', name: 'Tennessee', refundUrl: null },
  { code: 'TX', name: 'Texas', refundUrl: null },
  { code: 'UT', name: 'Utah', refundUrl: 'https://tap.tax.utah.gov/TaxExpress/_/#2' },
  { code: 'VT', name: 'Vermont', refundUrl: 'https://myvtax.vermont.gov/_/#2' },
  { code: 'VA', name: 'Virginia', refundUrl: 'https://www.tax.virginia.gov/wheres-my-refund' },
  { code: 'WA', name: 'Washington', refundUrl: null },
  { code: 'WV', name: 'West Virginia', refundUrl: 'https://mytaxes.wvtax.gov/_/#2' },
  { code: 'WI', name: 'Wisconsin', refundUrl: 'https://www.revenue.wi.gov/Pages/Apps/TaxReturnStatus.aspx' },
  { code: 'WY', name: 'Wyoming', refundUrl: null },
] as const;

/** The nine states without a refund-status link (docs/product.md §1.3). */
export const statesWithoutRefundLink = stateRefundLinks.filter((s) => s.refundUrl === null).map((s) => s.code);
