import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import PointOfSaleOutlined from '@mui/icons-material/PointOfSaleOutlined';
import ShoppingCartOutlined from '@mui/icons-material/ShoppingCartOutlined';
import LocalShippingOutlined from '@mui/icons-material/LocalShippingOutlined';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import SellOutlined from '@mui/icons-material/SellOutlined';
import EmailOutlined from '@mui/icons-material/EmailOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { ComponentType } from 'react';
import type { MenuIconKey } from './menu';

export const MENU_ICONS: Record<MenuIconKey, ComponentType<SvgIconProps>> = {
  dashboard: DashboardOutlined,
  sales: PointOfSaleOutlined,
  purchase: ShoppingCartOutlined,
  operations: LocalShippingOutlined,
  products: Inventory2Outlined,
  pricing: SellOutlined,
  email: EmailOutlined,
  integrations: HubOutlined,
  users: PeopleAltOutlined,
  settings: SettingsOutlined,
};
