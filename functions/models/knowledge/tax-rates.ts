/**
 * Standard rates of value-added, goods-and-services and sales taxes, in percent, as countries charge
 * them (EU VAT 5–27, GST 5–18, Malaysia's 6% GST and SST, Japan's 8 and 10…). A tax that is one of
 * these rates of the subtotal, to the cent, confirms both amounts where no total adds them up
 * (business.ts). Rates printed on the document ("Tax (8.25%)") count as well.
 *
 * To extend: add a rate.
 */
export const STANDARD_TAX_RATES: readonly number[] = [2.5, 3, 4, 5, 6, 7, 7.7, 8, 8.1, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27];
