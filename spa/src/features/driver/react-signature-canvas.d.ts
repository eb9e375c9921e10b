// react-signature-canvas 1.0.7 ships no types: the part this feature uses.
declare module 'react-signature-canvas' {
  import type { Component, CanvasHTMLAttributes } from 'react';

  export interface SignatureCanvasProps {
    penColor?: string;
    minWidth?: number;
    maxWidth?: number;
    clearOnResize?: boolean;
    onEnd?: () => void;
    onBegin?: () => void;
    canvasProps?: CanvasHTMLAttributes<HTMLCanvasElement> & Record<string, unknown>;
  }

  export default class SignatureCanvas extends Component<SignatureCanvasProps> {
    clear(): void;
    isEmpty(): boolean;
    getCanvas(): HTMLCanvasElement;
    toDataURL(type?: string): string;
  }
}
