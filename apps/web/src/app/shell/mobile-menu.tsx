import * as D from '@radix-ui/react-dialog';
import { SidebarContent } from './sidebar';

/** The sidebar as a sheet on small screens (the shell loads it when the menu button is used). */
export default function MobileMenu({
  open,
  onOpenChange,
  onLogout,
  onSettings,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onLogout: () => void;
  onSettings: () => void;
}) {
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-slate-900/50 xl:hidden" />
        <D.Content className="fixed inset-y-0 left-0 z-50 w-72 bg-white shadow-xl focus:outline-none xl:hidden">
          <D.Title className="sr-only">Menú</D.Title>
          <D.Description className="sr-only">Navegación de Mostrador</D.Description>
          <SidebarContent onNavigate={() => onOpenChange(false)} onLogout={onLogout} onSettings={onSettings} />
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
