/**
 * uPlot with its stylesheet, as one lazily loaded chunk: the CSS then travels with the library instead
 * of with the route (and the entry's preload map, which /signin downloads, does not grow).
 */
import 'uplot/dist/uPlot.min.css';

export { default } from 'uplot';
