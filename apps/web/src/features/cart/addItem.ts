import { createAsyncThunk } from '@reduxjs/toolkit';
import { errorMessage } from '../../app/api';
import { cartApi } from './api';
import { addToCart, type CartItem } from '../../app/cartSlice';

/**
 * Adds a product to the cart after refetching it for the current price and stock (spec section 4).
 * The caller may await `.unwrap()`; a failure is only logged to the console (spec section 8).
 */
export const addItem = createAsyncThunk<CartItem, { productId: string; qty: number }>(
  'cart/addItem',
  async ({ productId, qty }, { dispatch, rejectWithValue }) => {
    const request = dispatch(
      cartApi.endpoints.getCartProduct.initiate(productId, { forceRefetch: true, subscribe: false }),
    );
    const result = await request;
    if (result.error || !result.data) {
      const message = errorMessage(result.error);
      console.error(`Could not add product ${productId} to the cart: ${message}`);
      return rejectWithValue(message);
    }
    const product = result.data;
    if (product.stockQuantity < 1) {
      const message = `${product.productName} is out of stock`;
      console.error(`Could not add product ${productId} to the cart: ${message}`);
      return rejectWithValue(message);
    }
    const item: CartItem = {
      product: product._id,
      name: product.productName,
      image: product.productImage[0] ?? '',
      price: product.productPrice,
      countInStock: product.stockQuantity,
      qty: Math.min(qty, product.stockQuantity),
    };
    dispatch(addToCart(item));
    return item;
  },
);
