import { SHOP_ADDRESS } from '../../features/contact/contactInfo';
import TradeInPage from '../../features/tradeins/TradeInPage';

/**
 * /tradeins/:id (issue 35): the trade-ins feature's page, its packing slip addressed to the shop's
 * address as the contact page gives it. Composed here: features don't import each other.
 */
export default function TradeInDetailPage() {
  return <TradeInPage shopAddress={SHOP_ADDRESS} />;
}
